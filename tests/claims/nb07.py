"""Claims of notebooks/07_heatmaps.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "07_heatmaps.ipynb"

CLAIMS = [
    # cell 1
    Claim('0caf94db', 'all(w == 0 for w in guidance.values())', 'every shipped model learned attention from translation alone'),
    Claim('0caf94db', 'all(m.config["bidirectional"] for m in models.values())', 'all four models have bidirectional encoders'),
    # cell 3
    Claim('82a05974', 'peak == "am"', 'when generating 是 the peak is on am'),
    # cell 5
    Claim('f1188fdd', 'A == attention_to_links(t.attention, n_src=n_src, n_tgt=n_tgt)', 'the arg-max links by hand equal attention_to_links'),
    Claim('f1188fdd', 'abs(by_hand - aer(t.attention, pair.sure, pair.possible, n_src=n_src, n_tgt=n_tgt)) < 1e-12', 'AER by hand equals helpers.metrics.aer'),
    # cell 11
    Claim('7a893612', 'all(tag in ROWS and mostly_right(ROWS[tag]) for tag in ("time_front", "place_front"))', 'fronted time and place adverbials: the reordered rows mostly peak on their gold link'),
    Claim('7a893612', 'missed <= {"无确定链接", "相邻"}', 'in those sentences every missed row has no sure link or misses by one word'),
    # cell 13
    Claim('a4874b7b', 'all(tag in ROWS and mostly_right(ROWS[tag]) for tag in ("relative_clause", "adjective_de"))', 'relative clauses and adjective + 的: the reordered rows mostly peak on their gold link'),
    Claim('a4874b7b', 'de_rows and all(not [i for i, j in chosen[tag].sure if j == s - 1] for tag, s in de_rows)', 'the 的 rows have no sure link'),
    # cell 15
    Claim('44ac5304', 'aux and not [j for i, j in neg.sure if i in aux] and [j for i, j in neg.possible if i in aux]', "the negation's auxiliary has only possible links, no sure one"),
    Claim('44ac5304', 'top[0][0] == (("last", "night"), "昨晚")', 'the most common row with two sure links in test is last night → 昨晚'),
    Claim('44ac5304', 't_night.tgt_tokens == list(night.tgt) and night_rows[0] == night_rows[1] and a_night > 0', "'john did not cry last night' is translated exactly, every row on gold, yet AER > 0"),
    # cell 17
    Claim('f5110a2e', 'wh_i == 0 and min(wh_j) > 0', 'the question word is first in English but not in Chinese (reordered)'),
    Claim('f5110a2e', '"wh_question" in ROWS and mostly_right(ROWS["wh_question"])', 'wh-questions: the reordered rows mostly peak on their gold link'),
    Claim('f5110a2e', 'wh_rows[wh.tgt[wh_j[0]]] == wh.src[wh_i]', "the question word's row peaks on the English question word"),
    Claim('f5110a2e', 'not [i for i, j in yn.sure if j == j_ma] and (ma_peak, j_ma) in yn.possible', "吗 has no sure link, and the model's peak is one of its possible links"),
    # cell 19
    Claim('8124747b', '(int(np.argmax(row)), k) in num.sure', 'the measure word looks at its noun'),
    Claim('8124747b', '"clause_chain" in ROWS and ROWS["clause_chain"][0] >= 0.8 * ROWS["clause_chain"][1]', 'clause chains: at least 80 % of rows peak on gold'),
    Claim('8124747b', '{kind for *_, kind in chain_off} <= {"无确定链接", "相邻"}', 'in the clause chain every missed row has no sure link or misses by one word'),
    Claim('8124747b', 'not [j for i, j in chain.sure if i == and_i] and list(chain.tgt).count(chain.tgt[0]) == 1', 'and has no sure link; the first Chinese word occurs once'),
    # cell 21
    Claim('6b0dbfe0', 'ROWS["coordination"][1] - ROWS["coordination"][0] == 2 and ROWS["modal"][1] - ROWS["modal"][0] == 2', 'coordination and modal sentences: two rows of each miss'),
    Claim('6b0dbfe0', 'ROWS["modal"][3] == 0 and "wants" in chosen["modal"].src', 'the modal sentence (wants to) has no reordered row'),
    Claim('6b0dbfe0', 'rows_hit >= 0.8 * rows_total and moved_hit >= 0.8 * moved_total', 'across the gallery at least 80 % of rows, and of reordered rows, peak on gold'),
    Claim('6b0dbfe0', 'kinds_all.count("远") == 3 and gallery_rows.mean() > 0.9', 'three gallery rows miss by far; mean row maximum over 0.9'),
    # 2.7: Bahdanau Fig. 3 analogue
    Claim('b0898f6b', 'len(crossed) == 2 and all(crossings(p) >= 2 for p in crossed)', 'two exactly translated test sentences with at least two crossing sure links'),
    Claim('b0898f6b', 'all(f"交叉最多的第 {k} 句" in ROWS and mostly_right(ROWS[f"交叉最多的第 {k} 句"]) for k in (1, 2))', 'in them the reordered rows mostly peak on their gold link'),
    # 2.7: Luong Fig. 7 analogue
    Claim('ce60a535', 'len(outside) > 0', 'some sure links of the most-crossing sentence lie outside the local-m window'),
    # cell 23
    Claim('1aab4562', 'len(long_pair.src) == 41 and len(exact_long) == 17', '41 words; 17 of the first 80 exact'),
    Claim('1aab4562', 'aer_long is not None and 0 < len(exact_long) < 0.3 * 80', 'exact on fewer than 3 in 10'),
    Claim('1aab4562', 'long_rows[0] >= 0.8 * long_rows[1] and long_rows[2] >= long_rows[3] - 1', 'the long sentence: at least 80 % of rows on gold, all reordered rows but one'),
    Claim('1aab4562', 'long_kinds == {"无确定链接": 0, "相邻": 2, "远": 1}', 'the long sentence: two adjacent misses, one far'),
    Claim('6fd854eb', 'rec["long"]["char_bleu"] < rec["test"]["char_bleu"] - 0.05 and bl["51-60"]["char_bleu"] < bl["41-50"]["char_bleu"]', 'luong-general scores lower on long than test, lower still at 51-60'),
    Claim('6fd854eb', 'rec["errors"]["long"]["fewer_clauses"] > n_long_wrong / 2', 'most wrong long translations drop a clause'),
    # cell 25
    Claim('618c519f', '0.85 * N_TEST < sum(same) < 0.95 * N_TEST and np.median(list(scores.values())) < 0.2', '85-95 % of test sentences are translated exactly; their median AER is under 0.2'),
    Claim('618c519f', '0.05 * len(scores) < sum(v == 0 for v in scores.values()) < 0.2 * len(scores)', '5-20 % of exact translations have AER = 0'),
    Claim('618c519f', 'list(by_len) == ["3–10", "11–20", "21–30", "31–40"] and abs(by_len["31–40"][1] - by_len["3–10"][1]) < 0.05', 'AER hardly changes with sentence length (31-40 within 0.05 of 3-10)'),
    # cell 27
    Claim('e506b961', 'len(real) > len(variants) and len(real) < 0.1 * min(300, N_TEST)', 'most differing translations are real differences, under 10 % of the first 300'),
    Claim('e506b961', 'len(omitted) > max(sum(kinds[k].startswith(p) for k in real) for p in ("换了一个词", "多出", "多处不同"))', 'omission is the most common kind of real difference'),
    Claim('e506b961', 'looked(k_unseen) < 0.25 and looked(k_seen) > 0.9', 'one omitted word got under 0.25 at every step (hardly looked at), the other over 0.9 (looked at, not said)'),
    # cell 29
    Claim('12bc4c2c', 't_bad.tgt_tokens == outputs[k_unseen] and all(src not in {bad.src[i] for i in left_out} for s, tok, src, ok in row_peaks(t_bad, bad))', 'in the failure case no row peaks on the left-out word'),
    # cell 31
    Claim('b2642155', 't_worst.tgt_tokens == list(worst.tgt) and len(off_rows) > len(worst.tgt) / 2', 'the worst-AER sentence is translated exactly, yet over half its rows miss'),
    Claim('b2642155', 'sum(src == "taxi" for s, tok, src in off_rows) == 4 and worst_kinds.count("远") == 2', 'four missed rows peak on taxi; two miss by far'),
    # cell 33
    Claim('f32a16ec', 'cmp["luong-dot"][1] is None and all(a is not None for n, (_, a) in cmp.items() if n != "luong-dot")', 'luong-dot mistranslates it, the other three translate it exactly'),
    Claim('f32a16ec', 'all(miss_kind(t_cmp, cmp_pair, s) in ("无确定链接", "远") for t_cmp, a in cmp.values() if a is not None for s, *_, ok in row_peaks(t_cmp, cmp_pair) if not ok)', 'for the three exact models every missed row has no sure link, or (one) is far'),
    Claim('f32a16ec', 'max(soft, key=soft.get) == "luong-general" and min(soft, key=soft.get) == "bahdanau"', 'on this sentence luong-general is the sharpest and bahdanau the softest'),
    # cell 35
    Claim('194713f3', 'max(aers) < baseline / 3', 'every model aligns far better than the diagonal'),
    Claim('194713f3', 'all(r["max_alpha"] < 1 and r["entropy"] > 0 for r in table.values())', "every model's attention is soft (max-alpha < 1, entropy > 0)"),
    Claim('194713f3', 'all(0.85 < r["exact"] < 0.95 for r in table.values())', 'every model translates 85-95 % of test exactly'),
    Claim('194713f3', 'softest == "bahdanau" and sharpest == "luong-general"', 'bahdanau is the softest, luong-general the closest to one-hot'),
    Claim('194713f3', 'min(table, key=lambda n: table[n]["aer"]) == "luong-concat" and max(table, key=lambda n: table[n]["aer"]) == "bahdanau"', 'luong-concat has the lowest AER, bahdanau the highest'),
    # cell 37
    Claim('ea2ad15c', 'explorer.model.value == __import__("helpers.widgets.explorer", fromlist=["default_model"]).default_model()', 'no model given: the widget opens default_model()'),
    # cell 40
    Claim('1f93bc68', 'compare.model.value == explorer.model.value and compare.translation.tgt_tokens[compare.step.value - 1] == "的"', 'the comparison widget opens on the default model, at step t = 3 (的)'),
    # 6.1: an unknown name copied through attention
    Claim('1eedeeef', '[t_unk.src_tokens[i] for i in t_unk.unknown] == ["xiaoming"] and [c.word for c in t_unk.copied] == ["xiaoming"]', 'xiaoming is outside the vocabulary and is copied into the output'),
    Claim('1eedeeef', '"xiaoming" in t_unk.tgt_tokens and "<unk>" in t_none.tgt_tokens', 'the attention model writes the name; none keeps <unk>'),
    Claim('1eedeeef', 'all("xiaoming" not in helpers.translate(m, apposition).text for m in models.values())', 'after "my friend" every attention model drops the name'),
    # cell 44
    Claim('f10f13b3', 'all(r.changed["random"] < 0.02 and r.changed["peak"] > 10 * max(r.changed["random"], 0.005) for r in removal.values())', '随机去掉另一个键几乎不改变输出，去掉峰值改变得多十倍以上'),
    Claim('f10f13b3', 'all(0.2 < r.changed["peak"] < 0.95 for r in removal.values())', 'often, but not always, the word depends on the peak key'),
    Claim('f10f13b3', 'all(r.changed["second"] < r.changed["peak"] / 2 and r.changed["equal_mass"] < r.changed["peak"] / 2 for r in removal.values())', 'removing the second key, or as much weight from the other keys, changes the word far less often than removing the peak'),
    Claim('f10f13b3', 'least["test"] == least["novel"] == softest', "removing the peak changes the softest model's output least, on test and on novel"),
    # cell 46
    Claim('da5f0c2a', 'all(a["same"] > 2 * a["chance"] for a in agreement.values())', 'far more often the same word than chance'),
    Claim('da5f0c2a', 'all(0.4 < a["same"] < 0.65 for a in agreement.values())', 'but only about half of the rows'),
    Claim('da5f0c2a', 'all(a["att_gold"] > a["grad_gold"] + 0.1 for a in agreement.values())', 'the attention peak is on a gold link more often'),
    # cell 47
    Claim('0df6c0ed', '0 < len(differ) < n_t', 'attention and gradient × input disagree on some rows, not all'),
    # cell 50
    Claim('3e4fe0c6', 'torch.allclose(r1.scores[0], by_hand, atol=1e-4)', "scaled dot-product scores by hand equal helpers'"),
    Claim('3e4fe0c6', 'torch.allclose(as_transformer.weights[0, 0], r1.weights[0], atol=1e-6)', 'the Transformer form (Q, K, V) gives the same weights'),
    Claim('3e4fe0c6', 'torch.allclose(as_transformer.context[0, 0], r1.context[0], atol=1e-5)', 'the Transformer form gives the same context'),
    # cell 52
    Claim('85c07a3b', 'torch.allclose(r_self.weights[0], A, atol=1e-6) and torch.allclose(r_self.context[0], out, atol=1e-6)', "self-attention by hand equals helpers' (weights and output)"),
    Claim('85c07a3b', 'torch.allclose(A.sum(-1), torch.ones(len(book.src_tokens)))', 'each row of the self-attention matrix sums to 1'),
]
