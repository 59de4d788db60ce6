"""Claims of notebooks/05b_computation_extras.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "05b_computation_extras.ipynb"

CLAIMS = [
    # cell 5
    Claim('c8cac8cd', '(fresh_scores[0, n0:] == 0).all() and fresh_scores[0, :n0].abs().max() < 1', 'an untrained model scores the padding positions exactly 0, real words within ±1'),
    # cell 7
    Claim('0c75b257', '(trained_no_mask.scores[0, n0:] == 0).all()', 'the trained model also scores the padding positions exactly 0'),
    Claim('0c75b257', 'np.allclose(trained_masked.weights[0, :n0].numpy(), trace.steps[0].alpha, atol=1e-5)', 'with the mask, the padded batch gives the unpadded weights'),
    Claim('0c75b257', 'trained_no_mask.weights[0, n0:].sum() < 0.01', 'without the mask the padding gets under 1 % of the weight'),
    Claim('0c75b257', 'same is True', 'with the mask, the in-batch weights equal those of the sentence encoded alone'),
    # cell 10
    Claim('e00c525a', 'torch.allclose(top_layer(state_pk.hidden)[0], s0_alone, atol=1e-5)', "packing: the short sentence's final state equals that of the sentence alone"),
    # cell 12
    Claim('691ada20', 'c["none"]["打包，不加掩码"] == 0 and c["none"]["读进 <pad> + 掩码"] > 0.9 * len(shorts)', 'none: packing changes no translation; reading <pad> changes over 90 % of them'),
    Claim('691ada20', '0 < c["luong-general"]["打包，不加掩码"] < c["bahdanau"]["打包，不加掩码"] and c["bahdanau"]["打包，不加掩码"] > len(shorts) // 2', "without the mask some luong-general translations change, and over half of bahdanau's"),
    Claim('691ada20', 'max(c[n]["读进 <pad> + 掩码"] for n in ("luong-general", "bahdanau")) < c["none"]["读进 <pad> + 掩码"] / 2', 'with <pad> read but masked, attention models change under half as many translations as none'),
    Claim('691ada20', 'c["luong-general"]["读进 <pad>，不加掩码"] > max(c["luong-general"]["打包，不加掩码"], c["luong-general"]["读进 <pad> + 掩码"])', 'luong-general: both problems together change more translations than either alone'),
    # cell 19
    Claim('dcd1a336', 'torch.allclose(enc_b.W_p(annot), bahdanau.start(src_ids_b, torch.tensor([S])).encoder_outputs, atol=1e-5)', 'h̄_j = W_p h_j'),
    Claim('3ddd2e9b', 'torch.allclose(att.weights, alpha_b, atol=1e-6) and torch.allclose(logits_hand, logits_b, atol=1e-4)', 'one Bahdanau step by hand equals model.step'),
    Claim('3ddd2e9b', 'result.src_tokens[int(alpha_b.argmax())] == "am" and alpha_b.max() < alpha.max()', 'bahdanau also peaks on am for 是, but less sharply than luong-general'),
    # cell 22
    Claim('a91943af', 'np.allclose(res_m.weights[0].numpy(), m_hand, atol=1e-6) and abs(res_m.weights.sum().item() - 1) < 1e-6', "local-m by hand equals helpers' local-m, weights summing to 1"),
    Claim('01b7e5d9', 'abs(res_p.positions.item() - p_hand) < 1e-6 and np.allclose(res_p.weights[0].numpy(), p_hand_w, atol=1e-6)', 'local-p by hand: same p_t (Eq. E4) and same Gaussian-weighted alpha (E5)'),
    Claim('01b7e5d9', 'torch.allclose(local_rand(q_toy, keys_toy).positions[0], p_rand, atol=1e-6)', "with random W_p, v_p, p_t by hand (Eq. E4) equals helpers'"),
    # cell 24
    Claim('5597a3f0', 'np.allclose(sums_m, 1, atol=1e-6) and (sums_p < 1).all()', 'local-m rows sum to 1; local-p rows sum to less than 1 (the Gaussian)'),
    Claim('5597a3f0', 'global_w[j2].argmax() == s_y and abs((s_y + 1) - (j2 + 1)) > 2 and local_m.weights[0, j2, s_y] == 0', 'for 昨天 global attention peaks on yesterday, more than D away, so local-m gives it 0'),
    Claim('5597a3f0', '((local_p.positions > 1.5) & (local_p.positions < 4.5)).all()', 'the untrained local-p puts every p_t near the middle of the sentence'),
    # cell 28 (补充 4: precomputed by python -m helpers.extras.localp_results, or trained live)
    Claim('aaf7ea45', 'lp["window"] == 10 and lp["steps"] >= 1', 'local-p uses the window of the paper, D = 10'),
    # cell 29
    Claim('366f2445', '0 <= after["inside_local_p"] <= 1 and after["words"] == before["words"]', 'the window-hit share is a proportion, over the same target words before and after training'),
    Claim('366f2445', 'abs(before["local_p_error"] - before["middle_error"]) < 0.5', 'before training the predicted centres sit near the sentence middle'),
    Claim('366f2445', 'after["local_p_error"] < before["local_p_error"] and after["inside_local_p"] > before["inside_local_p"] and after["local_m_error"] < after["local_p_error"] and after["moved_local_m_error"] < after["moved_local_p_error"]', 'training brings p_t closer and raises the window hits, but local-m stays better, on moved words too'),
    # cell 32 (Luong Fig. 7 panels)
    Claim('de7e6d1c', 'list(lp["demo"]["src"]) == list(demo.src) and global_demo.shape == local_p_demo.shape == local_m_demo.shape', 'the stored local-p weights belong to the demo sentence'),
    Claim('de7e6d1c', 'demo.tgt[1] == "昨晚" and demo.src[-3:-1] == ("last", "night")', 'the demo sentence fronts 昨晚 (t = 2), last night ends the English'),
    Claim('de7e6d1c', 'np.allclose(local_m_demo.sum(-1), 1, atol=1e-5) and local_m_demo[1, demo.src.index("last")] == 0', 'local-m rows sum to 1 and give last night nothing at the 昨晚 step (outside D = 10)'),
    Claim('de7e6d1c', 'int(local_p_demo[j_ln].argmax()) == demo.src.index("night") and local_p_demo[j_ln].sum() < 0.5', 'local-p: the 昨晚 row peaks on night, and the Gaussian keeps the row sum under 0.5'),
    Claim('de7e6d1c', 'round(float(local_p_demo[j_ln].max()), 2) == 0.30', 'local-p: the largest weight of the 昨晚 row is 0.30 (on night)'),
    # cell 35
    Claim('6989efc9', 'list(lp["by_length"]) == ["3-20", "21-40", "41-60"] and all(e["n"] > 0 for e in lp["by_length"].values())', 'three length groups, none empty'),
    Claim('6989efc9', 'lp["by_length"]["3-20"]["moved_local_p_error"] < lp["by_length"]["3-20"]["moved_local_m_error"] and lp["by_length"]["3-20"]["local_m_error"] < lp["by_length"]["3-20"]["local_p_error"] and lp["by_length"]["21-40"]["moved_local_m_error"] < lp["by_length"]["21-40"]["moved_local_p_error"]', 'on 3-20-token sentences local-p wins on moved words, local-m over all words; on 21-40 local-m wins on moved words too'),
    Claim('6989efc9', 'lp["by_length"]["41-60"]["local_p_error"] > 2 * lp["by_length"]["41-60"]["local_m_error"] and lp["by_length"]["41-60"]["inside_local_p"] < lp["by_length"]["41-60"]["inside_local_m"]', 'beyond the training lengths local-p falls far behind local-m'),
    # cell 41
    Claim('3a31c421', '(weights_masked[0, n0:] == 0).all() and abs(pad_share - (S_max - n0) / S_max) < 0.08', 'masked: padding gets exactly 0; unmasked (random parameters) it takes about its share of the positions'),
    # cell 44
    Claim('d50b0da1', 'lagged', 'luong-general queried with h_(t-1): row t equals the old row t-1 (the weights lag one step)'),
    Claim('d50b0da1', 'trace2.src_tokens[int(alpha_prev[k_y].argmax())] != "yesterday"', 'querying with h_(t-1) the 昨天 step does not peak on yesterday'),
    Claim('d50b0da1', 'trace2.src_tokens[int(r_bah.attention[r_bah.tgt_tokens.index("昨天"), :6].argmax())] == "yesterday"', 'the trained bahdanau (query s_(t-1)) still peaks on yesterday for 昨天'),
]
