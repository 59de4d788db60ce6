"""Reference solutions and checkers of the two code exercises of one piece each (notebook 05a_computation_steps).

Each exercise implements one piece of the attention computation of Fig. 9-25:

* ``masked_softmax``   the normalisation of Eq. (9-37), with a padding mask (True = attend)
* ``context_vector``   c_t = Σ_s α_ts h̄_s, Eq. (9-38)

The other pieces (the score of Eq. (9-40), the attention vector of Eq. (9-39)) are written inside the
whole step of ``luong_step`` (``helpers.exercises.nb05_steps``).

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
    try_close,
)

NEG_INF = float("-inf")

# --- reference solutions ---------------------------------------------------------------------


def masked_softmax(scores, mask):
    """Softmax over the last axis where mask is True; a fully masked row gives zeros."""
    weights = torch.softmax(scores.masked_fill(~mask, NEG_INF), dim=-1)  # [.., S], NaN in full rows
    return weights.masked_fill(~mask, 0.0)  # [.., S]



def context_vector(weights, values):
    return weights @ values  # [B, T, S] @ [B, S, Dv] -> [B, T, Dv]



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


# --- context vector (9-38) -----------------------------------------------------------------------


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
