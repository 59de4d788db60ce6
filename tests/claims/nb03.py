"""Claims of notebooks/03_idea.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "03_idea.ipynb"

CLAIMS = [
    # cell 5
    Claim('b4a0f73d', 'sorted(on_am) == ["bahdanau", "luong-dot", "luong-general"] and peaks["luong-concat"] == "a"', ''),
    Claim('b4a0f73d', 'min(test_aer, key=test_aer.get) == "luong-concat" and MODEL == "luong-dot"', ''),
    Claim('b4a0f73d', '0.6 < weights[MODEL] < 0.7 and weights["luong-general"] > 0.99', ''),
    # cell 8
    Claim('7205322d', 'peak == "am" and 0.6 < row.max() < 0.7', ''),
    Claim('7205322d', 'second == "a" and 0.3 < np.sort(row)[-2] < 0.4', ''),
    # cell 11
    Claim('7fee15e0', 'set(renderings["am/is/are + a / an"]) == {"是", "有"}', ''),
    Claim('7fee15e0', 'renderings["am/is/are + a / an"].most_common(1)[0][0] == "是"', ''),
    Claim('7fee15e0', 'renderings["am/is/are + -ing 形式"].most_common(1)[0][0] == "在"', ''),
    Claim('7fee15e0', '{"在", "很", "是"} <= set(renderings["am/is/are + 其他词"])', ''),
    # cell 14
    Claim('43c733af', '[peak_of[w] for w in ("我", "是", "一", "学生", "。")] == ["i", "am", "a", "student", "."]', ''),
    # cell 16
    Claim('aab054fc', 'sorted(row_max, key=row_max.get)[:2] == ["是", "名"] and r_ming.max() < 0.8 and entropy(r_ming) > entropy(row)', ''),
    Claim('aab054fc', 'ming_top3 == ["student", ".", "am"]', ''),
    Claim('aab054fc', '"车" not in t3.tgt_tokens and "红色" in t3.tgt_tokens and measure3 == "个"', ''),
    # cell 18
    Claim('e18dd64a', 'set(de_rows) == {"luong-general", "bahdanau"} and wrong_measure == ["bahdanau"]', ''),
    Claim('e18dd64a', '[tr.src_tokens[int(np.argmax(de_rows[n]))] for n in ("luong-general", "bahdanau")] == ["red", "."]', ''),
    # cell 20
    Claim('250ae9e3', 'peak2["昨天"] == "yesterday" and peak2["吃"] == "ate" and peak2["了"] == "an"', ''),
    # cell 23
    Claim('4dd35201', 'torch.allclose(c_by_hand, c, atol=1e-5)', ''),
    # cell 25
    Claim('15e220fa', 'shi["原样"][2] == "是" and shi["原样"][1] > 0.9', ''),
    Claim('15e220fa', 'kept == ["去掉峰值", "均匀分布"] and shi["全零（c_t = 0）"][2] != "是"', ''),
    # cell 27
    Claim('5a29f402', 'share0[MODEL] > 2 * share0["none"]', 'attention: the aligned word dominates'),
    Claim('5a29f402', 'profiles[MODEL].mean_share[0] > 2 * profiles[MODEL].mean_share[1]', ''),
    Claim('5a29f402', 'profiles["none"].mean_share[0] < 2 * profiles["none"].mean_share[1]', 'none: spread over the neighbours'),
]
