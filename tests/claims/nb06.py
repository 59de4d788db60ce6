"""Claims of notebooks/06_training.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "06_training.ipynb"

CLAIMS = [
    # cell 5
    Claim('32376da4', 'n is not None and len(links_of(measure, k)) == 1', 'measure word -> its noun (sure)'),
    Claim('32376da4', 'set(links_of(measure, k - 1)) <= set(links_of(measure, k, "possible"))', 'and -> the numeral (possible)'),
    Claim('32376da4', 'not set(links_of(measure, k - 1)) & set(links_of(measure, k))', 'the numeral link is only possible'),
    # cell 7
    Claim('0cd8dd61', 'has_crossing(picked["关系从句（过去时）"]) and has_crossing(picked["where is / where are"])', ''),
    Claim('0cd8dd61', 'has_crossing(picked["数词 + 量词（量词是单独的词）"]) == bool(between)', 'an adjective between measure word and noun crosses'),
    # cell 9
    Claim('4b3da1b7', 'dropped_subjects(story) and all(not [j for ii, j in story.sure if ii == i] for i in dropped_subjects(story))', ''),
    # cell 11
    Claim('95388c29', 'max(share["但是"], share["可是"]) < 0.1 and top_n / len(long_pairs) < 0.10 and len(plans) == 17', ''),
    Claim('95388c29', 'english["所以"].most_common(1)[0][0] == english["就"].most_common(1)[0][0] == "so" and english["因为"].most_common(1)[0][0] == "because"', ''),
    # cell 14
    Claim('5e280e9b', 'not new_words', ''),
    # cell 16
    Claim('7965cde0', 'all(n > 0 for n in counts.values()) and counts["or"] < 20', ''),
    # cell 19
    Claim('41438a16', 'stats["unused_tgt_tokens"] == 0', ''),
    Claim('41438a16', '(min(train_len), max(train_len)) == (3, 40) and np.mean([n > 20 for n in train_len]) >= 0.25', ''),
    Claim('41438a16', '(min(long_len), max(long_len)) == (41, 60)', ''),
    Claim('41438a16', 'all(sum(lo <= n <= hi for n in stats["src_lengths"]["test"]) >= 200 for lo, hi in BUCKETS)', ''),
    Claim('41438a16', '(min(stats["src_lengths"]["novel"]), max(stats["src_lengths"]["novel"])) == (5, 16)', ''),
    # cell 22
    Claim('e22a7ccf', '0.5 < crossing_train / len(train_pairs) < 0.9 and time_front > 0.9 and rate["place_front"] > 0.9', ''),
    Claim('e22a7ccf', '0.2 < rate["measure_word"] < 0.9 and 0.2 < rate["possessive"] < 0.9', ''),
    # cell 24
    Claim('18d60c14', 'histories["none"].best_bleu < min(histories["bahdanau"].best_bleu, histories["luong-general"].best_bleu) - 0.3', '', full_only=True),
    Claim('18d60c14', 'histories["none"].step_loss[-1] > max(histories["bahdanau"].step_loss[-1], histories["luong-general"].step_loss[-1])', '', full_only=True),
    # cell 29
    Claim('d2a1070f', 'not shipped or (all(shipped[name]["recipe"]["align_weight"] == 0 for name in shipped))', 'all unguided'),
    Claim('d2a1070f', 'not shipped or (all(shipped[name]["test"]["char_bleu"] > shipped["none"]["test"]["char_bleu"] for name in attention_models))', ''),
    Claim('d2a1070f', 'not shipped or (all(shipped[name]["long"]["char_bleu"] > shipped["none"]["long"]["char_bleu"] for name in attention_models))', ''),
    Claim('d2a1070f', 'not shipped or (all(shipped[name]["novel"]["char_bleu"] > shipped["none"]["novel"]["char_bleu"] for name in attention_models))', ''),
    Claim('d2a1070f', 'not shipped or (all(shipped[name]["test"]["aer"] < 0.5 for name in attention_models))', ''),
    Claim('d2a1070f', 'not shipped or (all(shipped[name]["test"]["max_alpha"] < 1 and shipped[name]["test"]["entropy"] > 0 for name in attention_models))', ''),
    Claim('d2a1070f', 'not shipped or (all(r["novel"]["char_bleu"] < r["test"]["char_bleu"] for r in shipped.values()))', ''),
    Claim('d2a1070f', 'not shipped or (len({r["recipe"]["steps"] for r in shipped.values()}) == 1)', 'same number of steps'),
    Claim('d2a1070f', 'not shipped or (all(gap[name] > gap_test[name] for name in attention_models))', ''),
    Claim('d2a1070f', 'not shipped or (min(max_alpha, key=max_alpha.get) == max(entropy, key=entropy.get) == "bahdanau")', ''),
    Claim('d2a1070f', 'not shipped or (max(max_alpha, key=max_alpha.get) == min(entropy, key=entropy.get) == "luong-general")', ''),
    Claim('d2a1070f', 'not shipped or (min(by_len[n][b] for n in attention_models for b in inside) > 0.9)', ''),
    Claim('d2a1070f', 'not shipped or (by_len["none"]["31-40"] < min(by_len["none"][b] for b in inside[:3]) - 0.15)', 'none falls inside 3-40'),
    Claim('d2a1070f', 'not shipped or (all(by_len[n]["51-60"] < by_len[n]["41-50"] < min(by_len[n][b] for b in inside) for n in attention_models))', ''),
    Claim('d2a1070f', 'not shipped or (all(by_len[n]["51-60"] - by_len["none"]["51-60"] > 0.3 for n in attention_models))', ''),
    Claim('d2a1070f', 'not shipped or (max(r["exact"] for r in learner.values()) <= 0.25 and max(r["within_two"] for r in learner.values()) < 0.5)', ''),
    Claim('d2a1070f', 'not shipped or (all(r["long_within_two"] == 0 for r in learner.values()))', ''),
    Claim('d2a1070f', 'not shipped or (all(max(r["errors"], key=lambda s: r["errors"][s]["fewer_clauses"]) == "long" for r in shipped.values()))', ''),
    # cell 31
    Claim('fa6fb297', 'all(live[name]["test"]["char_bleu"] > live["none"]["test"]["char_bleu"] for name in ("bahdanau", "luong-general"))', '', full_only=True),
    Claim('fa6fb297', 'all(live[name]["long"]["char_bleu"] > live["none"]["long"]["char_bleu"] for name in ("bahdanau", "luong-general"))', '', full_only=True),
    Claim('fa6fb297', 'all(live[name]["test"]["char_bleu"] < shipped[name]["test"]["char_bleu"] and live[name]["test"]["aer"] > shipped[name]["test"]["aer"] for name in ("bahdanau", "luong-general") if shipped)', '', full_only=True),
    # cell 46
    Claim('897b2d7f', 'bool(right and wrong)', 'in full mode both kinds exist: a success and a failure', full_only=True),
]
