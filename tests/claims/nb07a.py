"""Claims of notebooks/07a_heatmaps.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "07a_heatmaps.ipynb"

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
    Claim('8b5b963f', 'aux and not [j for i, j in neg.sure if i in aux] and [j for i, j in neg.possible if i in aux]', "the negation's auxiliary has only possible links, no sure one"),
    Claim('8b5b963f', 'sentence_text(neg.src) == "lucy does not rest at home after school ."', 'the negation picked by the rule is lucy does not rest at home after school .'),
    Claim('de0a5518', 'top[0][:2] == (("last", "night"), "昨晚")', 'the most common row with two sure links in test is last night → 昨晚'),
    Claim('de0a5518', 't_night.tgt_tokens == list(night.tgt) and night_rows[0] == night_rows[1] and a_night > 0', "the 昨晚 sentence is translated exactly, every row on gold, yet AER > 0"),
    Claim('de0a5518', 'sentence_text(night.src) == "did you study in india last night ?" and j_night == 1', 'the 昨晚 sentence picked by the rule is did you study in india last night ? (昨晚 at t = 2)'),
    # cell 17
    Claim('f5110a2e', 'wh_i == 0 and min(wh_j) > 0', 'the question word is first in English but not in Chinese (reordered)'),
    Claim('f5110a2e', '"wh_question" in ROWS and mostly_right(ROWS["wh_question"])', 'wh-questions: the reordered rows mostly peak on their gold link'),
    Claim('f5110a2e', 'wh_rows[wh.tgt[wh_j[0]]] == wh.src[wh_i]', "the question word's row peaks on the English question word"),
    Claim('0291eebd', 'not [i for i, j in yn.sure if j == j_ma] and (ma_peak, j_ma) in yn.possible', "吗 has no sure link, and the model's peak is one of its possible links"),
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
    # cell 33
    Claim('f32a16ec', 'cmp["luong-dot"][1] is None and all(a is not None for n, (_, a) in cmp.items() if n != "luong-dot")', 'luong-dot mistranslates it, the other three translate it exactly'),
    Claim('f32a16ec', 'all(miss_kind(t_cmp, cmp_pair, s) in ("无确定链接", "远") for t_cmp, a in cmp.values() if a is not None for s, *_, ok in row_peaks(t_cmp, cmp_pair) if not ok)', 'for the three exact models every missed row has no sure link, or (one) is far'),
    Claim('f32a16ec', 'max(soft, key=soft.get) == "luong-general" and min(soft, key=soft.get) == "bahdanau"', 'on this sentence luong-general is the sharpest and bahdanau the softest'),
    # cell 35
    Claim('194713f3', '[round(table[n]["exact"], 3) for n in VARIANTS] == [0.906, 0.879, 0.917, 0.926]', 'exact match from 87.9 % (luong-dot) to 92.6 % (luong-concat)', full_only=True),
    Claim('194713f3', 'max(aers) < baseline / 3', 'every model aligns far better than the diagonal'),
    Claim('194713f3', 'all(r["max_alpha"] < 1 and r["entropy"] > 0 for r in table.values())', "every model's attention is soft (max-alpha < 1, entropy > 0)"),
    Claim('194713f3', 'all(0.85 < r["exact"] < 0.95 for r in table.values())', 'every model translates 85-95 % of test exactly'),
    Claim('194713f3', 'softest == "bahdanau" and sharpest == "luong-general"', 'bahdanau is the softest, luong-general the closest to one-hot'),
    Claim('194713f3', 'min(table, key=lambda n: table[n]["aer"]) == "luong-concat" and max(table, key=lambda n: table[n]["aer"]) == "bahdanau"', 'luong-concat has the lowest AER, bahdanau the highest'),
    # cell 37
    Claim('ea2ad15c', 'explorer.model.value == __import__("helpers.widgets.explorer", fromlist=["default_model"]).default_model()', 'no model given: the widget opens default_model()'),
    Claim('ea2ad15c', 'explorer.step.value == 2 and explorer.next_tokens()[0][:1] == ("昨晚",) and explorer.next_tokens()[0][2] and explorer.next_tokens()[0][1] > 0.99 and max(p for _, p, _ in explorer.next_tokens()[1:]) < 1e-4', 'at t = 2 the chosen 昨晚 is the top candidate with p > 0.99, the other four under 1e-4'),
    Claim('ea2ad15c', 'explorer.beam.value == 3 and (lambda kept: kept[0][1] - kept[1][1] > 9)(explorer.beam_trace.steps[1].kept)', 'beam search k = 3: at t = 2 the second hypothesis is more than 9 below the first in log p'),
    Claim('ea2ad15c', '[explorer._views[0].tgt_vocab.itos[i] for i in explorer.beam_trace.chosen[0]] == explorer.translation.tgt_tokens and explorer.beam_trace.chosen[3]', 'the hypothesis beam search chooses is the greedy translation'),
    # cell 40
    Claim('1f93bc68', 'side_by_side.model.value == explorer.model.value and side_by_side.translation.tgt_tokens[side_by_side.step.value - 1] == "的"', 'the comparison widget opens on the default model, at step t = 3 (的)'),
    # 6.1: an unknown name copied through attention
    Claim('1eedeeef', '[t_unk.src_tokens[i] for i in t_unk.unknown] == ["xiaoming"] and [c.word for c in t_unk.copied] == ["xiaoming"]', 'xiaoming is outside the vocabulary and is copied into the output'),
    Claim('b4baa206', '"xiaoming" in t_unk.tgt_tokens and "<unk>" in t_none.tgt_tokens', 'the attention model writes the name; none keeps <unk>'),
    Claim('b4baa206', 'all("xiaoming" not in helpers.translate(m, apposition).text for m in models.values())', 'after "my friend" every attention model drops the name'),
    # exercise 3: the threshold rule, revealed
    Claim('991f5908', 'by_threshold < by_argmax', 'with the threshold rule the AER of the sentence falls'),
]
