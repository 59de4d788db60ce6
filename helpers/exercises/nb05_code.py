"""Reference solutions and checkers of the seven code exercises (notebook 05a_computation_steps).

Each exercise implements one piece of the attention computation of Fig. 9-25:

* ``masked_softmax``   the normalisation of Eq. (9-37), with a padding mask (True = attend)
* ``dot_score``, ``general_score``, ``additive_score``   the score functions of Eq. (9-40)
* ``context_vector``   c_t = Σ_s α_ts h̄_s, Eq. (9-38)
* ``attention_vector`` h̃_t = tanh(W_c [c_t; h_t]), Eq. (9-39)
* ``hard_attention``   one-hot weights at the arg-max (hard attention, 9.10.3)

The references are written with plain torch here, independent of ``helpers.attention``. Each
``check_<id>(answer) -> Verdict`` runs the answer on random and edge cases (padding, fully masked
rows, masked positions holding the largest score, T ≠ S, Dq ≠ Dk, non-symmetric matrices,
batch size 1) and names the typical mistake it recognises.
"""

from __future__ import annotations

from functools import cache

import torch

from helpers.exercises.engine import (
    Case,
    Verdict,
    close,
    gen,
    nan_probe,
    randn,
    run_cases,
    scale_probe,
    softmaxed_probe,
    try_close,
)

NEG_INF = float("-inf")

# --- reference solutions ---------------------------------------------------------------------


def masked_softmax(scores, mask):
    """Softmax over the last axis where mask is True; a fully masked row gives zeros."""
    weights = torch.softmax(scores.masked_fill(~mask, NEG_INF), dim=-1)  # [.., S], NaN in full rows
    return weights.masked_fill(~mask, 0.0)  # [.., S]


def dot_score(query, keys):
    return query @ keys.transpose(1, 2)  # [B, T, D] @ [B, D, S] -> [B, T, S]


def general_score(query, keys, W_a):
    return query @ W_a @ keys.transpose(1, 2)  # [B, T, Dq] @ [Dq, Dk] @ [B, Dk, S] -> [B, T, S]


def additive_score(query, keys, W_q, W_k, v_a):
    q = (query @ W_q.T).unsqueeze(2)  # [B, T, 1, H]
    k = (keys @ W_k.T).unsqueeze(1)  # [B, 1, S, H]
    return torch.tanh(q + k) @ v_a  # [B, T, S, H] @ [H] -> [B, T, S]


def context_vector(weights, values):
    return weights @ values  # [B, T, S] @ [B, S, Dv] -> [B, T, Dv]


def attention_vector(context, h, W_c):
    return torch.tanh(torch.cat([context, h], dim=-1) @ W_c.T)  # [B, T, 2H] @ [2H, H] -> [B, T, H]


def hard_attention(scores, mask):
    keep = mask[:, None, :]  # [B, 1, S]
    index = scores.masked_fill(~keep, NEG_INF).argmax(dim=-1)  # [B, T]
    one_hot = torch.nn.functional.one_hot(index, scores.shape[-1]).to(scores.dtype)  # [B, T, S]
    return one_hot * keep  # a fully masked row gives zeros


# --- masked_softmax ----------------------------------------------------------------------------


def _lengths_mask(lengths: list[int], s: int) -> torch.Tensor:
    return torch.arange(s)[None, :] < torch.tensor(lengths)[:, None]  # [B, S]


@cache
def _softmax_cases() -> list[Case]:
    g = gen(101)
    c0 = randn(g, 2, 3, 5, scale=2.0)
    s1 = randn(g, 2, 3, 5, scale=2.0)
    m1 = _lengths_mask([4, 2], 5)[:, None, :].expand(2, 3, 5).clone()  # [B, T, S]
    s1 = s1.masked_fill(~m1, 6.0)  # masked positions hold the largest score
    s2 = randn(g, 1, 3, 4)
    m2 = torch.tensor([[[True, True, False, False], [False] * 4, [True, False, True, True]]])
    s3 = randn(g, 4, 6, scale=2.0)
    m3 = _lengths_mask([6, 5, 3, 1], 6)
    s3 = s3.masked_fill(~m3, 5.0)
    raw = [
        ("无填充 (no padding)", c0, torch.ones(2, 3, 5, dtype=torch.bool)),
        ("有填充 (padding)，被遮住的位置分数最大", s1, m1),
        ("有一整行都被遮住 (a fully masked row)", s2, m2),
        ("二维输入 [T, S]，有填充 (2-D input with padding)", s3, m3),
    ]
    return [Case(lbl, {"scores": s, "mask": m}, masked_softmax(s, m), "[..., S]") for lbl, s, m in raw]


def _softmax_variants(scores, mask, dim=-1):
    """Common ways of masking, each possibly wrong: (-inf, no zeroing), (-1e9), (multiply after)."""
    return [
        lambda: masked_softmax(scores.transpose(dim, -1), mask.transpose(dim, -1)).transpose(dim, -1),
        lambda: torch.softmax(scores.masked_fill(~mask, NEG_INF), dim=dim),
        lambda: torch.softmax(scores.masked_fill(~mask, -1e9), dim=dim),
        lambda: torch.softmax(scores, dim=dim) * mask,
    ]


def _fitted_scale(scores, mask, out) -> float | None:
    """Slope k of log(weight) against score inside unmasked positions: softmax(k · scores)?"""
    logw = torch.log(out.double().clamp_min(1e-300))
    s = scores.double()
    m = mask & (out > 0)
    rows = m.sum(-1, keepdim=True).clamp_min(1)
    lc = torch.where(m, logw - (logw * m).sum(-1, keepdim=True) / rows, 0.0)
    sc = torch.where(m, s - (s * m).sum(-1, keepdim=True) / rows, 0.0)
    denom = float((sc * sc).sum())
    return float((lc * sc).sum()) / denom if denom > 0 else None


def _diagnose_softmax(case: Case, out: torch.Tensor):
    scores, mask = case.inputs["scores"], case.inputs["mask"]
    full = ~mask.any(-1)  # fully masked rows
    some = ~full
    if any(try_close(out, v) for v in _softmax_variants(scores, ~mask)) or (
        bool(mask.all()) and torch.nan_to_num(out).abs().sum() == 0
    ):
        return (
            "inverted_mask",
            "掩码反了 (inverted mask)：True 表示可以关注 (True = attend)，被遮住的是 False 的位置。",
        )
    if torch.isnan(out).any():
        if full.any() and not torch.isnan(out)[some].any():
            return "nan_fully_masked", (
                "出现了 NaN (全被遮住的行 fully masked row)：整行都是 -inf 时 softmax 得到 0/0。"
                "请在 softmax 之后把被遮住的位置置 0，例如 weights.masked_fill(~mask, 0.0)。"
            )
        return nan_probe(out)
    for d in range(out.dim() - 1):
        if any(try_close(out, v) for v in _softmax_variants(scores, mask, dim=d)) or close(
            out.sum(d), torch.ones_like(out.sum(d))
        ):
            return "wrong_axis", (
                f"softmax 的维度不对 (wrong axis)：你的结果沿第 {d} 维求和为 1；"
                "应在最后一维 dim=-1（源序列位置 S）上归一化。"
            )
    if try_close(out, lambda: torch.softmax(scores, dim=-1)):
        return (
            "mask_ignored",
            "没有使用掩码 (mask ignored)：填充位置得到了注意力 (padding received attention)。",
        )
    padding_mass = (out * ~mask)[some].abs().max() if some.any() else torch.tensor(0.0)
    if padding_mass > 1e-6:
        return (
            "padding_attention",
            "填充位置得到了注意力 (padding received attention)：mask 为 False 的位置权重应为 0。",
        )
    if full.any() and out[full].abs().max() > 1e-6:
        return "fully_masked_not_zero", (
            f"全被遮住的行应输出全 0 (a fully masked row should give zeros)，你的输出是 {out[full][0].tolist()}。"
            "用很大的负数 (如 -1e9) 遮住时，整行会变成均匀分布 (uniform)；softmax 之后再把被遮住的位置置 0。"
        )
    sums = out.sum(-1)[some]
    if not close(sums, torch.ones_like(sums)):
        if try_close(out, lambda: torch.softmax(scores, dim=-1) * mask):
            return "not_normalised", (
                "权重没有归一化 (weights do not sum to 1)：先 softmax 再乘掩码，剩下的权重之和小于 1。"
                "应先遮住 (masked_fill 为 -inf) 再做 softmax。"
            )
        return "not_normalised", (
            f"权重没有归一化 (weights do not sum to 1)：每行之和应为 1，你的是 {[round(x, 3) for x in sums.tolist()[:6]]}。"
        )
    k = _fitted_scale(scores, mask, out)
    if k is not None and abs(k - 1) > 1e-3 and try_close(out, lambda: masked_softmax(scores * k, mask)):
        return "scaling", (
            f"多余的缩放 (scaling where none belongs)：你的结果相当于 softmax({k:.4g} × scores)。"
            "这里直接对分数做 softmax，不要除以 √d 或温度 (temperature)。"
        )
    return None


def check_masked_softmax(answer) -> Verdict:
    return run_cases(answer, _softmax_cases(), "fn(scores, mask)", _diagnose_softmax)


# --- score functions, Eq. (9-40) -----------------------------------------------------------------

_SCALE_HINT = "这个打分函数 (score function) 不除以 √D；除以 √D 的是缩放点积 (scaled dot-product)。"


@cache
def _dot_cases() -> list[Case]:
    g = gen(202)
    out = []
    for label, (b, t, s, d) in (
        ("B=2, T=3, S=5, D=4", (2, 3, 5, 4)),
        ("batch 为 1，T=4 > S=2", (1, 4, 2, 3)),
    ):
        q, k = randn(g, b, t, d), randn(g, b, s, d)
        out.append(Case(label, {"query": q, "keys": k}, dot_score(q, k), "[B, T, S]"))
    return out


def _diagnose_dot(case: Case, out: torch.Tensor):
    return (
        nan_probe(out) or scale_probe(out, case.expected, _SCALE_HINT) or softmaxed_probe(out, case.expected)
    )


def check_dot_score(answer) -> Verdict:
    tip = "提示：query [B, T, D] 与 keys [B, S, D] 相乘前，keys 要转置最后两维：keys.transpose(1, 2)。"
    return run_cases(answer, _dot_cases(), "fn(query, keys)", _diagnose_dot, exception_tip=tip)


@cache
def _general_cases() -> list[Case]:
    g = gen(303)
    out = []
    dims = (
        ("Dq = Dk = 4，W_a 不对称 (non-symmetric)", (2, 3, 5, 4, 4)),
        ("batch 为 1，Dq=3 ≠ Dk=5", (1, 2, 4, 3, 5)),
    )
    for label, (b, t, s, dq, dk) in dims:
        q, k, w = randn(g, b, t, dq), randn(g, b, s, dk), randn(g, dq, dk)
        out.append(Case(label, {"query": q, "keys": k, "W_a": w}, general_score(q, k, w), "[B, T, S]"))
    return out


def _diagnose_general(case: Case, out: torch.Tensor):
    q, k, w = case.inputs.values()
    if try_close(out, lambda: q @ w.T @ k.transpose(1, 2)):
        return (
            "transposed_W",
            "W_a 似乎被转置了 (transposed)：score = qᵀ W_a k，即 query @ W_a @ keys.transpose(1, 2)。",
        )
    if try_close(out, lambda: q @ k.transpose(1, 2)):
        return "W_unused", "没有用到 W_a (W_a unused)：这是点积 (dot) 分数；general 分数是 qᵀ W_a k。"
    return (
        nan_probe(out) or scale_probe(out, case.expected, _SCALE_HINT) or softmaxed_probe(out, case.expected)
    )


def check_general_score(answer) -> Verdict:
    tip = "提示：W_a 的形状是 [Dq, Dk]；query @ W_a 得到 [B, T, Dk]，再乘 keys.transpose(1, 2) [B, Dk, S]。"
    return run_cases(answer, _general_cases(), "fn(query, keys, W_a)", _diagnose_general, exception_tip=tip)


@cache
def _additive_cases() -> list[Case]:
    g = gen(404)
    out = []
    dims = (
        ("Dq = Dk = H = 4，矩阵不对称", (2, 3, 5, 4, 4, 4)),
        ("batch 为 1，Dq=3, Dk=5, H=6", (1, 2, 4, 3, 5, 6)),
    )
    for label, (b, t, s, dq, dk, h) in dims:
        q, k = randn(g, b, t, dq), randn(g, b, s, dk)
        wq, wk, v = randn(g, h, dq), randn(g, h, dk), randn(g, h)
        inputs = {"query": q, "keys": k, "W_q": wq, "W_k": wk, "v_a": v}
        out.append(Case(label, inputs, additive_score(q, k, wq, wk, v), "[B, T, S]"))
    return out


def _additive_variant(q, k, wq, wk, v, act=torch.tanh, reduce=None):
    x = act((q @ wq.T).unsqueeze(2) + (k @ wk.T).unsqueeze(1))  # [B, T, S, H]
    return x.sum(-1) if reduce == "sum" else x @ v


def _diagnose_additive(case: Case, out: torch.Tensor):
    q, k, wq, wk, v = case.inputs.values()
    known = [
        ("missing_tanh", lambda: _additive_variant(q, k, wq, wk, v, act=lambda x: x), "缺少 tanh (missing tanh)：score = v_aᵀ tanh(W_q q + W_k k)。"),
        ("transposed_W", lambda: _additive_variant(q, k, wq.T, wk, v), "W_q 似乎被转置了 (transposed)：W_q 的形状是 [H, Dq]，应计算 query @ W_q.T。"),
        ("transposed_W", lambda: _additive_variant(q, k, wq, wk.T, v), "W_k 似乎被转置了 (transposed)：W_k 的形状是 [H, Dk]，应计算 keys @ W_k.T。"),
        ("transposed_W", lambda: _additive_variant(q, k, wq.T, wk.T, v), "W_q 和 W_k 似乎被转置了 (transposed)：应计算 query @ W_q.T 和 keys @ W_k.T。"),
        ("swapped_W", lambda: _additive_variant(q, k, wk, wq, v), "W_q 和 W_k 用反了 (swapped)：W_q 作用于 query，W_k 作用于 keys。"),
        ("v_unused", lambda: _additive_variant(q, k, wq, wk, v, reduce="sum"), "没有用到 v_a (v_a unused)：最后一步是与 v_a 做点积，而不是直接求和。"),
        ("wrong_activation", lambda: _additive_variant(q, k, wq, wk, v, act=torch.relu), "激活函数应为 tanh，而不是 ReLU (wrong activation)。"),
        ("wrong_activation", lambda: _additive_variant(q, k, wq, wk, v, act=torch.sigmoid), "激活函数应为 tanh，而不是 sigmoid (wrong activation)。"),
    ]  # fmt: skip
    for mistake, make, msg in known:
        if try_close(out, make):
            return mistake, msg
    return nan_probe(out) or scale_probe(out, case.expected) or softmaxed_probe(out, case.expected)


def check_additive_score(answer) -> Verdict:
    tip = (
        "提示：W_q q 对应 query @ W_q.T [B, T, H]，W_k k 对应 keys @ W_k.T [B, S, H]；"
        "相加前用 unsqueeze 对齐成 [B, T, 1, H] 和 [B, 1, S, H]。"
    )
    return run_cases(answer, _additive_cases(), "fn(query, keys, W_q, W_k, v_a)", _diagnose_additive, tip)


# --- context vector (9-38), attention vector (9-39) ---------------------------------------------


@cache
def _context_cases() -> list[Case]:
    g = gen(505)
    w0 = masked_softmax(randn(g, 2, 3, 5), _lengths_mask([5, 3], 5)[:, None, :])
    w1 = torch.softmax(randn(g, 1, 1, 3), dim=-1)
    w2 = masked_softmax(
        randn(g, 2, 2, 4), torch.tensor([[[True] * 4, [False] * 4], [[True, True, False, False]] * 2])
    )
    raw = [
        ("有填充 (padding)，T=3, S=5, Dv=4", w0, randn(g, 2, 5, 4)),
        ("batch 为 1，T=1", w1, randn(g, 1, 3, 2)),
        ("有一整行权重全为 0 (a fully masked row)", w2, randn(g, 2, 4, 3)),
    ]
    return [Case(lbl, {"weights": w, "values": v}, context_vector(w, v), "[B, T, Dv]") for lbl, w, v in raw]


def _diagnose_context(case: Case, out: torch.Tensor):
    w, v = case.inputs.values()
    t = w.shape[1]
    if try_close(out, lambda: torch.softmax(w, dim=-1) @ v):
        return (
            "softmax_again",
            "注意力权重已经归一化 (weights are already normalised)，不要再做一次 softmax。",
        )
    for make in (
        lambda: v.mean(1, keepdim=True).expand(-1, t, -1),
        lambda: v.sum(1, keepdim=True).expand(-1, t, -1),
    ):
        if try_close(out, make):
            return (
                "weights_unused",
                "没有用注意力权重加权 (weights unused)：c_t = Σ_s α_ts h̄_s，每个 t 的结果应该不同。",
            )
    hint = "c_t = Σ_s α_ts h̄_s 是加权和，权重之和已经是 1，不要再除以 S 或取平均。"
    return nan_probe(out) or scale_probe(out, case.expected, hint)


def _context_shape_tip(case: Case, out: torch.Tensor) -> str:
    b, s, _ = case.inputs["values"].shape
    if out.dim() == 3 and out.shape[1] == s and s != case.expected.shape[1]:
        return "好像对 T 求和了：应对源序列位置 S 求和 (sum over S)，保留目标位置 T。"
    return ""


def check_context_vector(answer) -> Verdict:
    tip = "提示：weights [B, T, S] @ values [B, S, Dv] -> [B, T, Dv]，不需要转置。"
    return run_cases(
        answer, _context_cases(), "fn(weights, values)", _diagnose_context, tip, shape_tip=_context_shape_tip
    )


@cache
def _attn_vector_cases() -> list[Case]:
    g = gen(606)
    out = []
    for label, (b, t, h) in (("B=2, T=3, H=4", (2, 3, 4)), ("batch 为 1，T=1, H=2", (1, 1, 2))):
        c, hs, w = randn(g, b, t, h), randn(g, b, t, h), randn(g, h, 2 * h)
        out.append(Case(label, {"context": c, "h": hs, "W_c": w}, attention_vector(c, hs, w), "[B, T, H]"))
    return out


def _diagnose_attn_vector(case: Case, out: torch.Tensor):
    c, h, w = case.inputs.values()
    known = [
        ("swapped_concat_and_missing_tanh", lambda: torch.cat([h, c], -1) @ w.T, "缺少 tanh (missing tanh)，而且拼接顺序应为 [c; h] (concat order)。"),
        ("missing_tanh", lambda: torch.cat([c, h], -1) @ w.T, "缺少 tanh (missing tanh)：h̃_t = tanh(W_c [c_t; h_t])。"),
        ("swapped_concat", lambda: torch.tanh(torch.cat([h, c], -1) @ w.T), "拼接顺序应为 [c; h] (concat order)：先上下文向量 c_t，再隐含状态 h_t。"),
        ("wrong_activation", lambda: torch.relu(torch.cat([c, h], -1) @ w.T), "激活函数应为 tanh，而不是 ReLU (wrong activation)。"),
        ("wrong_activation", lambda: torch.sigmoid(torch.cat([c, h], -1) @ w.T), "激活函数应为 tanh，而不是 sigmoid (wrong activation)。"),
    ]  # fmt: skip
    for mistake, make, msg in known:
        if try_close(out, make):
            return mistake, msg
    return nan_probe(out) or scale_probe(out, case.expected)


def check_attention_vector(answer) -> Verdict:
    tip = "提示：torch.cat([context, h], dim=-1) 得到 [B, T, 2H]；W_c 的形状是 [H, 2H]，所以乘 W_c.T。"
    return run_cases(answer, _attn_vector_cases(), "fn(context, h, W_c)", _diagnose_attn_vector, tip)


# --- hard attention ------------------------------------------------------------------------------


@cache
def _hard_cases() -> list[Case]:
    g = gen(707)
    s0, m0 = randn(g, 2, 3, 5), _lengths_mask([3, 4], 5)
    s0[0] = torch.where(m0[0], s0[0], 8.0 + torch.arange(5.0))  # sentence 0: masked hold the largest
    s0[1] = s0[1].masked_fill(~m0[1], -9.0)  # sentence 1: masked positions hold the smallest score
    s1, m1 = randn(g, 1, 2, 4), torch.ones(1, 4, dtype=torch.bool)
    s2 = torch.tensor([[[0.5, 0.9, -0.5], [-0.8, 0.4, 2.1]], [[-0.2, -0.6, 0.7], [0.1, 0.9, 0.3]]])
    m2 = torch.tensor([[True, True, False], [False, False, False]])
    raw = [
        ("有填充 (padding)，第一句被遮住的位置分数最大", s0, m0),
        ("batch 为 1，无填充", s1, m1),
        ("第二个句子全被遮住 (a fully masked row)", s2, m2),
    ]
    return [Case(lbl, {"scores": s, "mask": m}, hard_attention(s, m), "[B, T, S]") for lbl, s, m in raw]


def _one_hot(index, s, dtype):
    return torch.nn.functional.one_hot(index, s).to(dtype)


def _diagnose_hard(case: Case, out: torch.Tensor):
    scores, mask = case.inputs.values()
    s, keep = scores.shape[-1], mask[:, None, :]
    o = out.double()
    full = ~mask.any(-1)  # sentences with every position masked
    if full.any() and close(o[~full], case.expected[~full]) and o[full].abs().sum() > 0:
        return (
            "fully_masked_not_zero",
            "全被遮住的行应输出全 0 (a fully masked row should give zeros)：可在最后乘以 mask[:, None, :]。",
        )
    if try_close(o, lambda: _one_hot(scores.argmax(-1), s, o.dtype)) or try_close(
        o, lambda: _one_hot(scores.argmax(-1), s, o.dtype) * keep
    ):
        return (
            "mask_ignored",
            "arg-max 忽略了掩码 (mask ignored)：被遮住的位置分数再大也不能选。先 masked_fill(~mask, -inf) 再 argmax。",
        )
    inverted = scores.masked_fill(keep, NEG_INF).argmax(-1)
    if try_close(o, lambda: _one_hot(inverted, s, o.dtype)) or try_close(
        o, lambda: _one_hot(inverted, s, o.dtype) * ~keep
    ):
        return "inverted_mask", "掩码反了 (inverted mask)：True 表示可以关注 (True = attend)。"
    lowest = scores.masked_fill(~keep, float("inf")).argmin(-1)
    if try_close(o, lambda: _one_hot(lowest, s, o.dtype) * keep) or try_close(
        o, lambda: _one_hot(lowest, s, o.dtype)
    ):
        return "argmin", "取成了最小值 (arg-min)：硬注意力选分数最大 (arg-max) 的位置。"
    if torch.isnan(o).any():
        return nan_probe(o)
    not_binary = ((o != 0) & (o != 1)).any()
    if not_binary:
        return (
            "soft",
            "这是软注意力 (soft attention)：硬注意力 (hard attention) 的权重是 one-hot，每行恰好一个 1，其余为 0。",
        )
    if full.any() and o[full].abs().sum() > 0:
        return (
            "fully_masked_not_zero",
            "全被遮住的行应输出全 0 (a fully masked row should give zeros)：可在最后乘以 mask[:, None, :]。",
        )
    if (o.sum(-1)[~full] != 1).any():
        return "not_one_hot", "每行应恰好有一个 1 (exactly one 1 per row)。"
    if (o * ~keep).abs().sum() > 0:
        return "padding_attention", "填充位置得到了注意力 (padding received attention)。"
    return None


def _hard_shape_tip(case: Case, out: torch.Tensor) -> str:
    if list(out.shape) == list(case.expected.shape[:2]):
        return "你返回的像是下标 (indices)：应返回 one-hot 权重，可用 torch.nn.functional.one_hot(index, S)。"
    return ""


def check_hard_attention(answer) -> Verdict:
    tip = "提示：mask 的形状是 [B, S]，与 [B, T, S] 的分数对齐要用 mask[:, None, :]（或 mask.unsqueeze(1)）。"
    return run_cases(
        answer, _hard_cases(), "fn(scores, mask)", _diagnose_hard, tip, shape_tip=_hard_shape_tip, integer_ok=True
    )
