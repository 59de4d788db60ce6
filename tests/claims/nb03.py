"""Claims of notebooks/03_idea.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "03_idea.ipynb"

CLAIMS = [
    # cell 5
    Claim('b4a0f73d', 'sorted(on_am) == sorted(ATTENTION_MODELS)', 'all four models peak on am when they output 是'),
    Claim('b4a0f73d', 'min(test_aer, key=test_aer.get) == "luong-concat" and MODEL == "luong-concat"', 'luong-concat has the lowest test AER and is chosen'),
    Claim('b4a0f73d', '0.6 < weights[MODEL] < 0.7 and weights["luong-dot"] > 0.99 and weights["luong-general"] > 0.95 and min(weights, key=weights.get) == "bahdanau" and weights["bahdanau"] < 0.6', 'luong-concat puts 0.650 on am, luong-dot 0.995, luong-general 0.954, bahdanau 0.582 (the flattest)'),
    Claim('b4a0f73d', 'all(r[1] == "我 是 一 名 学生 。" for r in rows)', 'all four models translate the sentence right'),
    # cell 8
    Claim('7205322d', 'peak == "am" and 0.6 < row.max() < 0.7', 'Fig. 9-22 row: the peak for 是 is am with weight 0.6-0.7'),
    Claim('7205322d', 'second == "a" and 0.2 < np.sort(row)[-2] < 0.3', 'the second largest weight for 是 is on a (0.26)'),
    Claim('7205322d', 'row[t.src_tokens.index("student")] < 0.1 and row[t.src_tokens.index(".")] < 0.1 and row[0] < 0.01', 'the other words get little weight'),
    # cell 11
    Claim('7fee15e0', '[zh for zh, _ in renderings["am/is/are + a / an"].most_common()] == ["是", "有", "（不译）"]', 'am/is/are before a/an align to 是, then 有, or are not translated'),
    Claim('7fee15e0', 'renderings["am/is/are + a / an"].most_common(1)[0][0] == "是"', 'am/is/are before a/an align most often to 是'),
    Claim('7fee15e0', 'renderings["am/is/are + -ing 形式"].most_common(1)[0][0] == "在"', 'am/is/are before an -ing form align most often to 在'),
    Claim('7fee15e0', '{"在", "很", "是"} <= set(renderings["am/is/are + 其他词"])', 'before other words am/is/are align to 在, 很 and 是 among others'),
    # cell 14
    Claim('43c733af', '[peak_of[w] for w in ("我", "是", "一", "学生", "。")] == ["i", "am", "a", "student", "."]', 'each output word peaks on its English counterpart (我-i, 是-am, 一-a, 学生-student, 。-.)'),
    # cell 16
    Claim('aab054fc', 'sorted(row_max, key=row_max.get)[:2] == ["是", "名"]', 'by max weight the rows of 是 and 名 are the least concentrated, 是 first'),
    Claim('aab054fc', 'ming_top3 == ["student", ".", "a"]', 'the measure word 名 looks most at student, then ., then a'),
    Claim('aab054fc', 'entropy(row) > entropy(r_ming)', 'by entropy too the row of 是 is flatter than the row of 名'),
    Claim('aab054fc', 't3.tgt_tokens == ["我", "哥哥", "有", "三", "个", "红色", "的", "车", "。"] and measure3 == "个"', "the chosen model translates 'three red cars' as 红色 的 车 with the wrong measure word 个"),
    Claim('aab054fc', '[t3.src_tokens[i] for i in np.argsort(-t3.attention[t3.tgt_tokens.index("个"), : len(t3.src_tokens)])[:2]] == ["red", "cars"]', 'the row of 个 peaks on red, cars gets the smaller share'),
    Claim('aab054fc', 'round(float(r_ge[t3.src_tokens.index("red")]), 2) == 0.57 and round(float(r_ge[t3.src_tokens.index("cars")]), 2) == 0.41', 'the row of 个: red 0.57, cars 0.41'),
    # cell 18
    Claim('e18dd64a', 'set(de_rows) == set(ATTENTION_MODELS) and wrong_measure == ["bahdanau", "luong-concat", "luong-dot"]', 'all four output 红色 的 车; only luong-general uses 辆'),
    Claim('e18dd64a', '[tr.src_tokens[int(np.argmax(de_rows[n]))] for n in ("luong-dot", "luong-general", "luong-concat", "bahdanau")] == ["red", ".", ".", "."] and de_rows["luong-general"].max() > 0.8', 'when outputting 的, luong-dot peaks on red, the other three on . (luong-general almost all)'),
    Claim('e18dd64a', 'top2_de["luong-concat"] == top2_de["bahdanau"] == {"cars", "."}', 'luong-concat and bahdanau split the row of 的 mainly between cars and .'),
    # cell 20
    Claim('250ae9e3', 'peak2["昨天"] == "yesterday" and peak2["吃"] == "ate" and peak2["了"] == "an"', 'reordering: 昨天 peaks on yesterday, 吃 on ate, 了 on an'),
    # cell 23
    Claim('4dd35201', 'torch.allclose(c_by_hand, c, atol=1e-5)', 'c_t computed by hand equals helpers.attention.context_vector'),
    # cell 25
    Claim('15e220fa', 'shi["原样"][2] == "是" and shi["原样"][1] > 0.9', 'unchanged, the step outputs 是 with p > 0.9'),
    Claim('15e220fa', 'kept == ["去掉峰值", "均匀分布"] and shi["全零（c_t = 0）"][2] != "是"', 'without its peak or with uniform weights the step still outputs 是; with c_t = 0 it does not'),
    Claim('15e220fa', 'shi["全零（c_t = 0）"][2] == "在" and round(shi["全零（c_t = 0）"][1], 3) == 0.001', 'with c_t = 0 the step outputs 在 and p(是) is 0.001'),
    # cell 34 (reveal of exercise 1; its reading in the markdown cell after it)
    Claim('8252ebcf', 'student["均匀分布"][2] == "学生"', 'with uniform weights the step still outputs 学生 (student keeps 1/S)'),
    Claim('8252ebcf', 'student["去掉峰值"][2] != "学生" and student["全零（c_t = 0）"][2] != "学生"', 'without the peak, or with c_t = 0, the step no longer outputs 学生: the decoder state alone does not know it'),
    # cell 27
    Claim('5a29f402', 'share0[MODEL] > 2 * share0["none"]', 'attention: the aligned word dominates'),
    Claim('5a29f402', 'profiles[MODEL].mean_share[0] > 2 * profiles[MODEL].mean_share[1]', 'for the attention model the gradient share at distance 0 is over twice that at distance 1'),
    Claim('5a29f402', 'profiles["none"].mean_share[0] < 2 * profiles["none"].mean_share[1]', 'none: spread over the neighbours'),
]
