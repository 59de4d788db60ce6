"""Claims of notebooks/06_training.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "06_training.ipynb"

CLAIMS = [
    # cell 3
    Claim('21231301', 'tour["会（能力）"].src.count("can") == 1 and "会" in tour["会（能力）"].tgt and "可能" not in tour["会（能力）"].tgt', 'the 会 example is a can sentence (ability), not might'),
    # cell 5
    Claim('32376da4', 'n is not None and len(links_of(measure, k)) == 1', 'measure word -> its noun (sure)'),
    Claim('32376da4', 'set(links_of(measure, k - 1)) <= set(links_of(measure, k, "possible"))', 'and -> the numeral (possible)'),
    Claim('32376da4', 'not set(links_of(measure, k - 1)) & set(links_of(measure, k))', 'the numeral link is only possible'),
    # cell 7
    Claim('0cd8dd61', 'has_crossing(picked["关系从句（过去时）"]) and has_crossing(picked["where is / where are"])', 'the relative-clause and where-is examples have crossing links'),
    Claim('0cd8dd61', 'has_crossing(picked["数词 + 量词（量词是单独的词）"]) and not between and "time_front" in picked["数词 + 量词（量词是单独的词）"].phenomena', 'the measure-word example crosses because of its fronted time phrase (no adjective stands between measure word and noun)'),
    # cell 9
    Claim('4b3da1b7', 'dropped_subjects(story) and all(not [j for ii, j in story.sure if ii == i] for i in dropped_subjects(story))', 'the shortest long story drops a continuing subject pronoun in Chinese: it has no sure link'),
    # cell 11
    Claim('95388c29', 'share["但是"] + share["可是"] < 0.2 and top_n / len(long_pairs) < 0.10 and len(plans) == 43', 'contrast connectives appear in a minority of long sentences; 43 discourse plans, none over 10 %'),
    Claim('95388c29', 'english["之后"].most_common(1)[0][0] == "and after that" and english["然后"].most_common(1)[0][0] == "and then"', '之后 links to and after that, 然后 to and then'),
    Claim('95388c29', 'english["所以"].most_common(1)[0][0] == english["就"].most_common(1)[0][0] == "so" and english["因为"].most_common(1)[0][0] == "because"', '所以 and 就 link mostly to so, 因为 to because'),
    # cell 14
    Claim('5e280e9b', 'not new_words', 'novel has no word that the training set lacks'),
    # cell 16
    Claim('7965cde0', 'len(nouns) > 100 and all(len(rows) >= 3 for rows in families.values()) and nouns[0]["zh"]', 'the tour reads the noun table and two pattern families from the data files'),
    # cell 18
    Claim('5f687e71', '0 < covered[1000] < covered[300] <= 1 and len(reasons) > 0', 'coverage falls from the top 300 to the top 1000 words; the left-out words have reasons'),
    # cell 20
    Claim('4072774d', 'unk_pairs and bare_pairs and all("<unk>" in p.tgt for p in unk_pairs)', 'train holds <unk> pairs (both sides) and pairs without a final mark'),
    # cell 22
    Claim('758b588a', 'len(multi.references) > 1 and multi.references[0] == multi.tgt', 'a pair with several references, the first being tgt'),
    # cell 19
    Claim('41438a16', 'stats["unused_tgt_tokens"] == 0', 'every Chinese vocabulary word occurs in the training set'),
    Claim('41438a16', '(min(train_len), max(train_len)) == (3, 40) and np.mean([n > 20 for n in train_len]) >= 0.25', 'training sentences are 3-40 words, at least a quarter over 20'),
    Claim('41438a16', '(min(long_len), max(long_len)) == (41, 60)', 'long sentences are 41-60 words'),
    Claim('41438a16', 'all(sum(lo <= n <= hi for n in stats["src_lengths"]["test"]) >= 200 for lo, hi in BUCKETS)', 'every length bucket of test has at least 200 sentences'),
    Claim('41438a16', '(min(stats["src_lengths"]["novel"]), max(stats["src_lengths"]["novel"])) == (5, 17)', 'novel sentences are 5-17 words'),
    # cell 22
    Claim('e22a7ccf', '0.5 < crossing_train / len(train_pairs) < 0.9 and time_front > 0.9 and rate["place_front"] > 0.9', '50-90 % of training pairs have crossing links; over 90 % of time_front and place_front pairs do'),
    Claim('e22a7ccf', '0.2 < rate["measure_word"] < 0.9 and 0.2 < rate["possessive"] < 0.9', 'measure-word and possessive pairs cross only sometimes (20-90 %)'),
    # cell 24
    Claim('18d60c14', 'histories["none"].best_bleu < min(histories["bahdanau"].best_bleu, histories["luong-general"].best_bleu) - 0.3', "full budget: none's best validation char-BLEU is over 0.3 below both attention models", full_only=True),
    Claim('18d60c14', 'all(histories[n].val_bleu[-1] > histories[n].val_bleu[-2] for n in ("bahdanau", "luong-general"))', "full budget: the attention models' validation BLEU still rises at the last evaluation", full_only=True),
    Claim('18d60c14', 'histories["none"].step_loss[-1] > max(histories["bahdanau"].step_loss[-1], histories["luong-general"].step_loss[-1])', 'none ends with the highest training loss (the prose says so of the full budget; quick mode agrees)'),
    # cell 29
    Claim('d2a1070f', 'not shipped or (all(shipped[name]["recipe"]["align_weight"] == 0 for name in shipped))', 'all unguided'),
    Claim('d2a1070f', 'not shipped or (all(shipped[name]["test"]["char_bleu"] > shipped["none"]["test"]["char_bleu"] for name in attention_models))', 'shipped models: every attention model beats none on test char-BLEU'),
    Claim('d2a1070f', 'not shipped or (all(shipped[name]["long"]["char_bleu"] > shipped["none"]["long"]["char_bleu"] for name in attention_models))', 'shipped models: every attention model beats none on long'),
    Claim('d2a1070f', 'not shipped or (all(shipped[name]["novel"]["char_bleu"] > shipped["none"]["novel"]["char_bleu"] for name in attention_models))', 'shipped models: every attention model beats none on novel'),
    Claim('d2a1070f', 'not shipped or (all(shipped[name]["test"]["aer"] < 0.5 for name in attention_models))', "shipped models: every attention model's test AER is under 0.5"),
    Claim('d2a1070f', 'not shipped or (all(shipped[name]["test"]["max_alpha"] < 1 and shipped[name]["test"]["entropy"] > 0 for name in attention_models))', 'shipped models: attention is soft (mean max-alpha < 1, entropy > 0)'),
    Claim('d2a1070f', 'not shipped or (all(r["novel"]["char_bleu"] < r["test"]["char_bleu"] for r in shipped.values()))', 'shipped models: every model scores lower on novel than on test'),
    Claim('d2a1070f', 'not shipped or (len({r["recipe"]["steps"] for r in shipped.values()}) == 1)', 'same number of steps'),
    Claim('d2a1070f', 'not shipped or (all(gap[name] > gap_test[name] for name in attention_models))', 'shipped models: the lead over none is larger on long than on test'),
    Claim('d2a1070f', 'not shipped or (min(max_alpha, key=max_alpha.get) == max(entropy, key=entropy.get) == "bahdanau")', 'shipped models: bahdanau is the softest (lowest max-alpha, highest entropy)'),
    Claim('d2a1070f', 'not shipped or (max(max_alpha, key=max_alpha.get) == min(entropy, key=entropy.get) == "luong-general")', 'shipped models: luong-general is the hardest'),
    Claim('d2a1070f', 'not shipped or (min(by_len[n][b] for n in attention_models for b in inside) > 0.9)', 'shipped models: within 3-40 words every attention model stays over 0.9'),
    Claim('d2a1070f', 'not shipped or (by_len["none"]["31-40"] == min(by_len["none"][b] for b in inside) and by_len["none"]["31-40"] < by_len["none"]["11-20"] - 0.2)', 'none falls inside 3-40: from 11-20 words to 31-40 words, its lowest bucket'),
    Claim('d2a1070f', 'not shipped or (by_len["rnnencdec"]["31-40"] < by_len["rnnencdec"]["11-20"] - 0.1)', 'rnnencdec falls from 11-20 to 31-40 words too'),
    Claim('d2a1070f', 'not shipped or (all(by_len[n]["3-10"] < by_len[n]["11-20"] for n in shipped))', 'every model scores lower at 3-10 words than at 11-20'),
    Claim('d2a1070f', 'not shipped or (all(shipped["rnnencdec"][s]["char_bleu"] > shipped["none"][s]["char_bleu"] for s in ("test", "novel", "long")))', 'rnnencdec beats none on every split'),
    Claim('d2a1070f', 'not shipped or (all(shipped[n][s]["char_bleu"] > shipped["rnnencdec"][s]["char_bleu"] + 0.1 for n in attention_models for s in ("test", "novel", "long")))', 'every attention model leads rnnencdec by over 0.1 on every split'),
    Claim('d2a1070f', 'not shipped or (shipped["rnnencdec"]["long"]["char_bleu"] - shipped["none"]["long"]["char_bleu"] < shipped["rnnencdec"]["test"]["char_bleu"] - shipped["none"]["test"]["char_bleu"])', "rnnencdec's lead over none is smaller on long than on test"),
    Claim('d2a1070f', 'not shipped or (max(shipped[n]["novel"]["exact_match"] for n in NO_ATTENTION) <= 0.05)', 'the two baselines translate almost no novel sentence exactly'),
    Claim('d2a1070f', 'not shipped or sorted(attention_models) == sorted(["bahdanau", "luong-dot", "luong-general", "luong-concat"])', 'four attention models, two baselines'),
    Claim('d2a1070f', 'not shipped or (all(by_len[n]["51-60"] < by_len[n]["41-50"] < min(by_len[n][b] for b in inside) for n in attention_models))', 'shipped models: beyond 40 words attention models fall, more at 51-60'),
    Claim('d2a1070f', 'not shipped or (all(by_len[n]["51-60"] - by_len["none"]["51-60"] > 0.3 for n in attention_models))', 'shipped models: at 51-60 words every attention model leads none by over 0.3'),
    Claim('d2a1070f', 'not shipped or (round(max(r["exact"] for r in learner.values()), 2) == 0.30 and max(r["within_two"] for r in learner.values()) < 0.5)', "shipped models: on learners' sentences at most 30 % exact, under half within two edits"),
    Claim('d2a1070f', 'not shipped or (learner["none"]["n"] == 60 and learner["none"]["n_long"] == 20)', 'learner sentences: 60, of which 20 have 20 words or more'),
    Claim('d2a1070f', 'not shipped or (all(r["long_within_two"] == 0 for r in learner.values()))', 'shipped models: no learner sentence over 20 words comes within two edits'),
    Claim('d2a1070f', 'not shipped or (all(max(r["errors"], key=lambda s: r["errors"][s]["fewer_clauses"]) == "long" for r in shipped.values()))', 'shipped models: dropped clauses are most frequent on long'),
    # cell 31
    Claim('fa6fb297', 'all(live[name]["test"]["char_bleu"] > live["none"]["test"]["char_bleu"] for name in ("bahdanau", "luong-general"))', 'full budget: the models trained here beat none on test', full_only=True),
    Claim('fa6fb297', 'all(live[name]["long"]["char_bleu"] > live["none"]["long"]["char_bleu"] for name in ("bahdanau", "luong-general"))', 'full budget: the models trained here beat none on long', full_only=True),
    Claim('fa6fb297', 'all(live[name]["test"]["char_bleu"] < shipped[name]["test"]["char_bleu"] and live[name]["test"]["aer"] > shipped[name]["test"]["aer"] for name in ("bahdanau", "luong-general") if shipped)', "the notebook's short training stays below the shipped models, BLEU and AER (the prose says so of the full budget; quick mode agrees)"),
    Claim('fa6fb297', 'all(live[n]["test"]["exact_match"] < live[n]["test"]["char_bleu"] for n in ("bahdanau", "luong-general"))', 'full budget: the live models match few sentences exactly, below their char-BLEU (the prose: a wrong content word spoils a whole sentence)', full_only=True),
    # cell 46
    Claim('897b2d7f', 'bool(right and wrong)', 'in full mode both kinds exist: a success and a failure', full_only=True),
]
