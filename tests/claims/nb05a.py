"""Claims of notebooks/05a_computation_steps.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "05a_computation_steps.ipynb"

CLAIMS = [
    # cell 1
    Claim('b950c5a4', 'cfg["input_feeding"]', '第 6 节需要一个开着输入馈送的模型'),
    # cell 3
    Claim('5cca0fd5', '"是" in result.tgt_tokens', ''),
    # cell 5
    Claim('bd140d1e', 'result.src_tokens[peak] == "am"', ''),
    # cell 9
    Claim('71972750', 'model.decoder.attention.score.scaled', '这个模型的分数除以 √H'),
    # cell 11
    Claim('25da5a09', 'torch.allclose(scores_hand, scores, atol=1e-4)', ''),
    Claim('25da5a09', 'torch.allclose(alpha_hand, alpha, atol=1e-6)', ''),
    # cell 13
    Claim('d1fa9aaa', 'torch.allclose(c_hand, c_t, atol=1e-6)', ''),
    Claim('d1fa9aaa', 'torch.allclose(c_t, model.decoder.attention(h_t, H_bar, mask=state.src_mask).context, atol=1e-6)', ''),
    Claim('d1fa9aaa', 'result.src_tokens[int(cos.argmax())] == result.src_tokens[int(alpha.argmax())]', ''),
    # cell 15
    Claim('7c1a91f3', 'torch.allclose(h_tilde_hand, attention_vector(c_t, h_t, W_c), atol=1e-6)', ''),
    # cell 17
    Claim('54041b4f', 'torch.allclose(alpha_model, alpha_hand, atol=1e-6)', ''),
    Claim('54041b4f', 'torch.allclose(state_next.attn_vector, h_tilde_hand, atol=1e-5)', ''),
    Claim('54041b4f', 'torch.allclose(torch.softmax(logits_model, dim=-1), probs, atol=1e-6)', ''),
    # cell 19
    Claim('153e8704', 'torch.allclose(x_next[:, E:], state_next.attn_vector, atol=1e-5)', '后 H 维就是 h̃_t'),
    Claim('153e8704', 'torch.allclose(alpha_next_hand, alpha_next, atol=1e-6)', ''),
    # cell 21
    Claim('4701da2f', 'change > 0.1 and same and alpha_cut[0, s_a] < alpha_next[0, s_a]', ''),
    Claim('4701da2f', 'alpha_cut[0, s_am] - alpha_next[0, s_am] > (alpha_next[0, s_a] - alpha_cut[0, s_a]) / 2', '挪走的大多给了 am'),
    # cell 24
    Claim('6f3e1d49', 'np.allclose(np.stack([st.alpha for st in trace.steps]), result.attention, atol=1e-6)', ''),
    Claim('6f3e1d49', 'min(st.alpha.max() for st in trace.steps if st.token != "名") > 0.9 and ming.alpha.max() < 0.7', ''),
    Claim('6f3e1d49', 'peak_of["一"] == "a" and peak_of["名"] == "." and second == "student"', ''),
    Claim('6f3e1d49', 'ming.alpha[trace.src_tokens.index("a")] < 0.01', '“名”几乎不看冠词 a'),
    Claim('6f3e1d49', 'ming.alpha[[trace.src_tokens.index(w) for w in (".", "student")]].sum() > 0.99', '全部分在 . 和 student 上'),
    # cell 27
    Claim('8f15c7cb', 'all(torch.allclose(hand[name], module(q, K)[:, 0], atol=1e-4) for name, module in modules.items())', '六种打分函数的手写版与 helpers 一致'),
    # cell 29
    Claim('40221fe8', 'torch.allclose(same(q, K), additive(q, K), atol=1e-5)', ''),
    # cell 31
    Claim('fd4fa060', 'rank(alphas["dot"]) == rank(alphas["scaled dot (E1)"])', '除以 √H 不改变排名'),
    Claim('fd4fa060', 'alphas["scaled dot (E1)"].max() < alphas["dot"].max()', '只是更平缓'),
    Claim('fd4fa060', 'max(alphas[k].max() for k in ("concat", "additive", "location (E2)")) < 0.5', ''),
    Claim('fd4fa060', 'result.src_tokens[int(alphas["dot"].argmax())] != "am"', ''),
    # cell 35
    Claim('fa822d0e', 'all(helpers.translate(helpers.load_pretrained(n), sentence).tgt_tokens == ["我", "是", "一", "名", "学生", "。"] for n in ("luong-dot", "luong-general", "luong-concat", "bahdanau"))', '四个模型都译对了'),
    Claim('fa822d0e', 'peaks_shi == ["am", "am", "a", "am"]', 'luong-concat 的峰值在 a 上'),
    Claim('fa822d0e', 'min(shi_max, key=shi_max.get) == "luong-concat" and max(shi_max, key=shi_max.get) == "luong-general"', ''),
    Claim('fa822d0e', 'int(np.argsort(-concat_shi)[1]) == result.src_tokens.index("am")', ''),
    Claim('fa822d0e', 'min(rows[0][2], rows[6][2]) > 0.2', ''),
    Claim('fa822d0e', 'max(spread.values()) < 0.8 and peaks_ming == {"luong-dot": "student", "luong-general": ".", "luong-concat": "student", "bahdanau": "student"}', ''),
    Claim('fa822d0e', 'min(student_ming.values()) > 0.4', ''),
]
