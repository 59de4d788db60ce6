"""Claims of notebooks/05b_computation_extras.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "05b_computation_extras.ipynb"

CLAIMS = [
    # cell 5
    Claim('c8cac8cd', '(fresh_scores[0, n0:] == 0).all() and fresh_scores[0, :n0].abs().max() < 1', ''),
    # cell 7
    Claim('0c75b257', '(trained_no_mask.scores[0, n0:] == 0).all()', ''),
    Claim('0c75b257', 'np.allclose(trained_masked.weights[0, :n0].numpy(), trace.steps[0].alpha, atol=1e-5)', ''),
    Claim('0c75b257', 'trained_no_mask.weights[0, n0:].sum() < 0.01', ''),
    # cell 10
    Claim('e00c525a', 'torch.allclose(top_layer(state_pk.hidden)[0], s0_alone, atol=1e-5)', ''),
    # cell 12
    Claim('691ada20', 'c["none"]["打包，不加掩码"] == 0 and c["none"]["读进 <pad> + 掩码"] > 0.9 * len(shorts)', ''),
    Claim('691ada20', '0 < c["luong-general"]["打包，不加掩码"] < c["bahdanau"]["打包，不加掩码"] and c["bahdanau"]["打包，不加掩码"] > len(shorts) // 2', ''),
    Claim('691ada20', 'max(c[n]["读进 <pad> + 掩码"] for n in ("luong-general", "bahdanau")) < c["none"]["读进 <pad> + 掩码"] / 3', ''),
    # cell 19
    Claim('dcd1a336', 'torch.allclose(enc_b.W_p(annot), bahdanau.start(src_ids_b, torch.tensor([S])).encoder_outputs, atol=1e-5)', 'h̄_j = W_p h_j'),
    Claim('dcd1a336', 'torch.allclose(att.weights, alpha_b, atol=1e-6) and torch.allclose(logits_hand, logits_b, atol=1e-4)', ''),
    Claim('dcd1a336', 'result.src_tokens[int(alpha_b.argmax())] == "am" and alpha_b.max() < alpha.max()', ''),
    # cell 22
    Claim('a91943af', 'np.allclose(res_m.weights[0].numpy(), m_hand, atol=1e-6) and abs(res_m.weights.sum().item() - 1) < 1e-6', ''),
    Claim('a91943af', 'abs(res_p.positions.item() - p_hand) < 1e-6 and np.allclose(res_p.weights[0].numpy(), p_hand_w, atol=1e-6)', ''),
    Claim('a91943af', 'torch.allclose(local_rand(q_toy, keys_toy).positions[0], p_rand, atol=1e-6)', ''),
    # cell 24
    Claim('cb69e711', 'np.allclose(sums_m, 1, atol=1e-6) and (sums_p < 1).all()', ''),
    Claim('cb69e711', 'global_w[j2].argmax() == s_y and abs((s_y + 1) - (j2 + 1)) > 2 and local_m.weights[0, j2, s_y] == 0', ''),
    Claim('cb69e711', '((local_p.positions > 1.5) & (local_p.positions < 4.5)).all()', ''),
    # cell 28
    Claim('366f2445', '0 <= after.inside_local_p <= 1 and after.words == before.words', ''),
    Claim('366f2445', 'abs(before.local_p_error - before.middle_error) < 0.1', '训练前：就是句子中间', full_only=True),
    Claim('366f2445', 'after.local_p_error > before.local_p_error > after.local_m_error', '训练后反而更远，local-m 最近', full_only=True),
    Claim('366f2445', 'after.moved_local_p_error > after.moved_local_m_error and after.inside_local_p < after.inside_local_m', '', full_only=True),
    # cell 31
    Claim('6989efc9', '(lambda errs, hits: errs == sorted(errs) and hits == sorted(hits, reverse=True) and hits[-1] < 0.1)([e.local_p_error for e in by_len.values()], [e.inside_local_p for e in by_len.values()])', '完整预算：句子越长，local-p 的误差越大、窗口命中越少，long 上命中不到一成', full_only=True),
    Claim('6989efc9', 'all(e.local_m_error < e.local_p_error and e.inside_local_m > e.inside_local_p for e in by_len.values())', '', full_only=True),
    # cell 41
    Claim('3a31c421', '(weights_masked[0, n0:] == 0).all() and abs(pad_share - (S_max - n0) / S_max) < 0.05', ''),
    # cell 44
    Claim('d50b0da1', 'lagged', ''),
    Claim('d50b0da1', 'trace2.src_tokens[int(alpha_prev[k_y].argmax())] != "yesterday"', ''),
    Claim('d50b0da1', 'trace2.src_tokens[int(r_bah.attention[r_bah.tgt_tokens.index("昨天"), :6].argmax())] == "yesterday"', ''),
    Claim('d50b0da1', 'r_bah.tgt_tokens[2] == "看"', 'bahdanau 把 ate 译成了“看”'),
]
