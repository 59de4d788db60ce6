"""Claims of notebooks/05a_computation_steps.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "05a_computation_steps.ipynb"

CLAIMS = [
    # cell 1
    Claim('b950c5a5', 'cfg["input_feeding"]', '第 6 节需要一个开着输入馈送的模型'),
    # cell 3
    Claim('5cca0fd5', '"是" in result.tgt_tokens', "the model's translation of the sentence contains 是"),
    # cell 5
    Claim('bd140d1e', 'result.src_tokens[peak] == "am"', 'when outputting 是 the largest weight is on am'),
    # cell 9
    Claim('71972750', 'model.decoder.attention.score.scaled', '这个模型的分数除以 √H'),
    # cell 11
    Claim('25da5a09', 'torch.allclose(scores_hand, scores, atol=1e-4)', "step ① by hand: the general scores equal the model's"),
    Claim('25da5a09', 'torch.allclose(alpha_hand, alpha, atol=1e-6)', "step ② by hand: softmax of the scores gives the model's alpha_t"),
    # cell 13
    Claim('d1fa9aaa', 'torch.allclose(c_hand, c_t, atol=1e-6)', 'step ③ by hand: c_t = sum_s alpha_ts h̄_s (Eq. 9-38)'),
    Claim('d1fa9aaa', 'torch.allclose(c_t, model.decoder.attention(h_t, H_bar, mask=state.src_mask).context, atol=1e-6)', "the hand-computed c_t equals the model's attention context"),
    Claim('d1fa9aaa', 'result.src_tokens[int(cos.argmax())] == result.src_tokens[int(alpha.argmax())]', 'c_t is most similar (cosine) to the h̄_s with the largest weight'),
    Claim('d1fa9aaa', 'float(alpha.max()) > 0.9', 'this step is almost one-hot (the soft bahdanau example follows)'),
    Claim('721a8975', 'int((a_soft > 0.1).sum()) >= 2 and float(cos_soft.max()) < 0.99 and abs(float(a_soft.sum()) - 1) < 1e-4', "bahdanau's softest row spreads its weight: c_t equals no single h̄_s"),
    Claim('721a8975', 't_soft == 6 and soft.tgt_tokens[t_soft - 1] == "。" and [round(float(a_soft[soft.src_tokens.index(w)]), 2) for w in ("a", ".", "student", "am")] == [0.50, 0.35, 0.07, 0.05]', 'the most diffuse non-<eos> row of bahdanau is the 。 step: a 0.50, . 0.35, student 0.07, am 0.05'),
    Claim('721a8975', '[round(float(cos_soft[soft.src_tokens.index(w)]), 2) for w in ("a", ".", "student", "am")] == [0.89, 0.75, 0.61, 0.57]', 'cosine similarity of c_t with a 0.89, . 0.75, student 0.61, am 0.57'),
    # cell 15
    Claim('7c1a91f3', 'torch.allclose(h_tilde_hand, attention_vector(c_t, h_t, W_c), atol=1e-6)', 'step ④ by hand: h̃_t = tanh(W_c [c_t; h_t]) (Eq. 9-39) equals attention_vector'),
    # cell 17
    Claim('54041b4f', 'torch.allclose(alpha_model, alpha_hand, atol=1e-6)', 'model.step gives the hand-computed alpha_t'),
    Claim('54041b4f', 'torch.allclose(state_next.attn_vector, h_tilde_hand, atol=1e-5)', 'model.step gives the hand-computed h̃_t'),
    Claim('54041b4f', 'torch.allclose(torch.softmax(logits_model, dim=-1), probs, atol=1e-6)', 'model.step gives the hand-computed output distribution (Eq. 9-40)'),
    # cell 19
    Claim('153e8704', 'torch.allclose(x_next[:, E:], state_next.attn_vector, atol=1e-5)', '后 H 维就是 h̃_t'),
    Claim('153e8704', 'torch.allclose(alpha_next_hand, alpha_next, atol=1e-6)', "input feeding: the next step's alpha by hand equals the model's"),
    # cell 21
    Claim('4701da2f', 'change > 0.1 and same and alpha_cut[0, s_a] < alpha_next[0, s_a]', "cutting input feeding moves the next step's weights by over 0.1 without changing the output, and a gets less"),
    Claim('4701da2f', 'alpha_cut[0, result.src_tokens.index("student")] - alpha_next[0, result.src_tokens.index("student")] > (alpha_next[0, s_a] - alpha_cut[0, s_a]) / 2', '挪走的大多给了 student'),
    # cell 24
    Claim('6f3e1d49', 'np.allclose(np.stack([st.alpha for st in trace.steps]), result.attention, atol=1e-6)', "the traced steps reproduce translate()'s attention matrix"),
    Claim('6f3e1d49', 'trace.steps[-1].token == "<eos>" and min(st.alpha.max() for st in trace.steps[:-1]) > 0.9 and trace.steps[-1].alpha.max() < 0.9', 'every step but the last (<eos>) puts over 0.9 on one word'),
    Claim('6f3e1d49', 'peak_of["一"] == "a" and peak_of["名"] == "student"', '一 peaks on a; 名 peaks on student'),
    # cell 27
    Claim('8f15c7cc', 'all(torch.allclose(hand[name], module(q, K)[:, 0], atol=1e-4) for name, module in modules.items())', '六种打分函数的手写版与 helpers 一致'),
    # cell 29
    Claim('40221fe8', 'torch.allclose(same(q, K), additive(q, K), atol=1e-5)', 'concat with W_a = [W_1, W_2] gives the same scores as additive (Bahdanau)'),
    # cell 31
    Claim('fd4fa060', 'rank(alphas["dot"]) == rank(alphas["scaled dot (E1)"])', '除以 √H 不改变排名'),
    Claim('fd4fa060', 'alphas["scaled dot (E1)"].max() < alphas["dot"].max()', '只是更平缓'),
    Claim('fd4fa060', 'max(alphas[k].max() for k in ("concat", "additive", "location (E2)")) < 0.5', 'untrained concat, additive and location scores give flat weights (max under 0.5)'),
    Claim('fd4fa060', 'result.src_tokens[int(alphas["dot"].argmax())] == "am" and alphas["dot"].max() < alphas["general ÷√H (E1)"].max()', 'plain dot on these states also peaks on am, flatter than general'),
    # cell 35
    Claim('fa822d0e', 'all(helpers.translate(helpers.load_pretrained(n), sentence).tgt_tokens == ["我", "是", "一", "名", "学生", "。"] for n in shi)', '四个模型都译对了'),
    Claim('fa822d0e', 'all(peak_word(r) == "am" for r in shi.values())', '四个模型输出“是”时的峰值都在 am 上'),
    Claim('fa822d0e', 'min(shi["luong-dot"].max(), shi["luong-general"].max()) > 0.9 and max(shi["luong-concat"].max(), shi["bahdanau"].max()) < 0.7', 'in the 是 row the two multiplicative models put over 0.9 on am, the two additive ones under 0.7'),
    Claim('fa822d0e', 'all(int(np.argsort(-shi[n])[1]) == result.src_tokens.index("a") and shi[n][2] > 0.2 for n in ("luong-concat", "bahdanau"))', 'luong-concat and bahdanau give their second largest weight for 是 (over 0.2) to a'),
    Claim('fa822d0e', 'all(peak_word(r) == "student" for r in ming.values()) and 0.75 < min(r.max() for r in ming.values()) and max(r.max() for r in ming.values()) < 0.95', 'all four models peak on student for 名, with 0.79 to 0.93'),
    # exercise 5 reveal
    Claim('2b4250a3', 'peak["random unscaled"] > 0.8 and peak["random scaled"] < 0.5 and peak["untrained unscaled"] < 0.5', 'unit-variance vectors saturate without 1/sqrt(H); the untrained model does not'),
    Claim('2b4250a3', 'round(peak["untrained unscaled"], 2) == 0.10 and round(1 / 12, 2) == 0.08 and round(peak["random unscaled"], 2) == 0.91', 'the untrained model: 0.10 (uniform 0.08); unit-variance vectors: 0.91'),
]
