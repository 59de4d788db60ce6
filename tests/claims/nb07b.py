"""Claims of notebooks/07b_faithfulness.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "07b_faithfulness.ipynb"

CLAIMS = [
    # 1. the whole test split
    Claim('618c519f', '0.85 * N_TEST < sum(same) < 0.95 * N_TEST and np.median(list(scores.values())) < 0.2', '85-95 % of test sentences are translated exactly; their median AER is under 0.2'),
    Claim('618c519f', '0.05 * len(scores) < sum(v == 0 for v in scores.values()) < 0.2 * len(scores)', '5-20 % of exact translations have AER = 0'),
    Claim('618c519f', 'sum(same) == 906 and round(float(np.median(list(scores.values()))), 3) == 0.156', '90.6 % exact, median AER 0.156', full_only=True),
    Claim('9aa0eefb', 'round(by_len["3–10"][1], 3) == 0.142 and round(by_len["31–40"][1], 3) == 0.158', 'AER 0.142 on 3-10 words, 0.158 on 31-40', full_only=True),
    Claim('9aa0eefb', 'list(by_len) == ["3–10", "11–20", "21–30", "31–40"] and abs(by_len["31–40"][1] - by_len["3–10"][1]) < 0.05', 'AER hardly changes with sentence length (31-40 within 0.05 of 3-10)'),
    # 2.1 wrong translations
    Claim('e506b961', 'len(wrong) == 28 and len(variants) == 4 and len(real) == 24', 'of the first 300, 28 differ from the reference: 4 only in phrasing (the sentence-final 了 included), 24 really'),
    Claim('e506b961', 'all(kinds[k] == OTHER_PHRASING for k in variants[:3]) and any("所以" in outputs[k] for k in variants[:3]) and any(["去", "公园"] == outputs[k][-3:-1] for k in variants[:3])', 'the phrasing examples: 所以 for 就, and 去 公园 for 去 了 公园'),
    Claim('e506b961', 'len(real) > len(variants) and len(real) < 0.1 * min(300, N_TEST)', 'most differing translations are real differences, under 10 % of the first 300'),
    Claim('eb14925b', 'len(omitted) > max(sum(kinds[k].startswith(p) for k in real) for p in ("换了一个词", "多出", "多处不同"))', 'omission is the most common kind of real difference'),
    Claim('eb14925b', 'len(omitted) == 11', 'eleven of the real differences are omissions'),
    Claim('eb14925b', 'looked[k_unseen] < 0.25 and looked[k_seen] > 0.9', 'one omitted word got under 0.25 at every step (hardly looked at), the other over 0.9 (looked at, not said)'),
    Claim('12bc4c2c', 't_bad.tgt_tokens == outputs[k_unseen] and all(src not in {bad.src[i] for i in left_out} for s, tok, src, ok in row_peaks(t_bad, bad))', 'in the failure case no row peaks on the left-out word'),
    # 2.2 right, but misaligned
    Claim('b2642155', 't_worst.tgt_tokens == list(worst.tgt) and len(off_rows) > len(worst.tgt) / 2', 'the worst-AER sentence is translated exactly, yet over half its rows miss'),
    Claim('b2642155', 'sum(src == "taxi" for s, tok, src in off_rows) == 4 and worst_kinds.count("远") == 2', 'four missed rows peak on taxi; two miss by far'),
    # 3. experiment 1: removing the peak key, with controls
    Claim('f10f13b3', 'all(r.changed["random"] < 0.02 and r.changed["peak"] > 10 * max(r.changed["random"], 0.005) for r in removal.values())', 'removing another key at random hardly changes the output; removing the peak changes it ten times as often or more'),
    Claim('f10f13b3', 'all(0.2 < r.changed["peak"] < 0.95 for r in removal.values())', 'often, but not always, the word depends on the peak key'),
    Claim('f10f13b3', 'all(r.changed["second"] < r.changed["peak"] / 2 and r.changed["equal_mass"] < r.changed["peak"] / 2 for r in removal.values())', 'removing the second key, or as much weight from the other keys, changes the word far less often than removing the peak'),
    Claim('f10f13b3', 'least["test"] == least["novel"] == softest == "bahdanau"', "removing the peak changes the softest model's (bahdanau) output least, on test and on novel"),
    Claim('f10f13b3', 'all(r.changed["peak"] > 0.25 and max(r.changed["second"], r.changed["equal_mass"], r.changed["random"]) < 0.02 for (split, _), r in removal.items() if split == "test")', 'on test, removing the peak changes 27-47 % of the words, every control under 2 %'),
    Claim('f10f13b3', '[round(min(removal["test", n].changed["peak"] for n in VARIANTS), 2), round(max(removal["test", n].changed["peak"] for n in VARIANTS), 2)] == [0.27, 0.47]', 'test: 27 %-47 % for removing the peak', full_only=True),
    Claim('f10f13b3', 'removal["test", "luong-general"].peak_weight > removal["test", "luong-dot"].peak_weight and removal["test", "luong-general"].changed["peak"] < removal["test", "luong-dot"].changed["peak"]', 'luong-general is sharper than luong-dot yet changes less when its peak is removed'),
    # 3.1 at equal weight removed
    Claim('c3d94a60', 'all(r[2] > 0.6 and r[4] < r[3] / 2 and r[5] < r[3] / 2 for r in removed_rows(removal))', 'most steps have a peak over one half; the equal-mass and second-key controls remove less than half the weight remove-peak does'),
    Claim('c3d94a60', '[round(f(r[2] for r in removed_rows(removal)), 2) for f in (min, max)] == [0.66, 0.98] and [round(f(r[3] for r in removed_rows(removal)), 3) for f in (min, max)] == [0.629, 0.919] and [round(f(r[4] for r in removed_rows(removal)), 3) for f in (min, max)] == [0.075, 0.233] and [round(f(r[5] for r in removed_rows(removal)), 3) for f in (min, max)] == [0.059, 0.143]', '66-98 % of steps peak over 0.5; weight removed 0.629-0.919 (peak), 0.075-0.233 (equal mass), 0.059-0.143 (second)', full_only=True),
    Claim('c3d94a60', 'all(r[3] > r[4] and r[3] > r[5] and r[3] - max(r[4], r[5]) < 0.1 for r in soft)', 'on steps with peak <= 0.5 removing the peak changes the most, by a few points only'),
    Claim('c3d94a60', '[round(f(r[i] for r in soft), 3) for i in (3, 4, 5) for f in (min, max)] == [0.052, 0.104, 0.014, 0.039, 0.016, 0.041] and [r[1:] for r in soft if r[0] == "luong-general"][0][0] == 404 and [round(x, 3) for x in [r for r in soft if r[0] == "luong-general"][0][3:]] == [0.052, 0.032, 0.040]', 'peak <= 0.5: 5.2-10.4 % vs 1.4-3.9 % and 1.6-4.1 %; luong-general 404 steps, 0.052 / 0.032 / 0.040', full_only=True),
    Claim('c3d94a60', 'all(b[2] > 2 * b[4] and b[2] > 1.5 * b[6] for b in bins[1:3]) and bins[0][1] == 0 and bins[3][3] == bins[3][5] == 0', 'at equal weight removed (0.1-0.5) removing the peak changes the word over twice as often as equal mass, 1.5x the second key; no control removes over one half'),
    Claim('c3d94a60', '[round(bins[k][i], 3) for k in (1, 2) for i in (2, 4, 6)] == [0.022, 0.007, 0.010, 0.082, 0.029, 0.045] and all(2.5 < bins[k][2] / bins[k][4] < 3.5 and 1.5 < bins[k][2] / bins[k][6] < 2.5 for k in (1, 2))', 'bins: 2.2 / 0.7 / 1.0 % and 8.2 / 2.9 / 4.5 %; about three times equal mass, twice the second key', full_only=True),
    Claim('c3d94a60', 'bins[3][1] > 0.5 * sum(b[1] for b in bins)', 'most remove-peak steps remove over one half of the weight'),
    # 4. experiment 2: gradient × input
    Claim('da5f0c2a', 'all(a["same"] > 2 * a["chance"] for a in agreement.values())', 'far more often the same word than chance'),
    Claim('da5f0c2a', 'all(0.4 < a["same"] < 0.65 for a in agreement.values())', 'but only about half of the rows'),
    Claim('da5f0c2a', 'all(a["att_gold"] > a["grad_gold"] + 0.1 for a in agreement.values())', 'the attention peak is on a gold link more often'),
    Claim('0df6c0ed', '0 < len(differ) < n_t', 'attention and gradient × input disagree on some rows, not all'),
]
