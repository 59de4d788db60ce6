"""Attention: masked softmax, the score functions of Eq. (9-40) and the Attention module.

This module mirrors section 9.10.3 of the book (Fig. 9-24, Fig. 9-25). At decoding step t the
Query is the decoder state h_t, the Keys and Values are the encoder states h̄_1..h̄_S:

* Eq. (9-37)  attention weights   α_ts = exp(score(h_t, h̄_s)) / Σ_s' exp(score(h_t, h̄_s'))
              -> ``masked_softmax`` (padding positions get weight 0)
* Eq. (9-38)  context vector      c_t = Σ_s α_ts h̄_s                    -> ``context_vector``
* Eq. (9-39)  attention vector    h̃_t = tanh(W_c [c_t; h_t])            -> ``attention_vector``,
              ``AttentionVector``; the output distribution is softmax(W_s h̃_t) (see helpers.decoders)
* Eq. (9-40)  score functions
    dot          h_tᵀ h̄_s                                   -> ``DotScore``
    scaled dot   h_tᵀ h̄_s / sqrt(D)    (extra (E1), not in the book) -> ``ScaledDotScore``
    general      h_tᵀ W_a h̄_s                               -> ``GeneralScore``    (Luong, multiplicative)
    scaled general  h_tᵀ W_a h̄_s / sqrt(Dk)  (extra (E1))      -> ``GeneralScore(..., scaled=True)``
    concat       v_aᵀ tanh(W_a [h_t; h̄_s])                  -> ``ConcatScore``     (Luong)
    additive     v_aᵀ tanh(W_q h_t + W_k h̄_s)              -> ``AdditiveScore``   (Bahdanau, the book's
                                                                W_1, W_2 are our W_q, W_k)

``Attention`` strings steps ① and ② together (scores -> weights -> context) and also offers hard
attention (one-hot weights at the arg-max, section 9.10.3 part 1).

Extras (not equations of the book), numbered (E1)–(E5) in the order notebooks 05a and 05b read them:

* (E1) scaled scores                  h_tᵀ h̄_s / sqrt(D), h_tᵀ W_a h̄_s / sqrt(Dk)  -> ``ScaledDotScore``,
                                      ``GeneralScore(..., scaled=True)``
* (E2) location-based score (Luong et al. 2015 §3.1)  a_t = softmax(W_a h_t): the query alone decides
                                      the weights                     -> ``LocationScore``, name "location"
* (E3) local-m centre (§3.2)          p_t = t (monotonic alignment; at most S_i); the weights are the plain
                                      align(h_t, h̄_s) inside the window, a row sums to 1 -> ``LocalAttention(mode="m")``
* (E4) local-p centre (§3.2)          p_t = S_i · sigmoid(v_pᵀ tanh(W_p h_t)), S_i = true source length
* (E5) local-p weights (§3.2)         a_t(s) = align(h_t, h̄_s) · exp(−(s − p_t)² / (2σ²)), σ = D/2
                                                                      -> ``LocalAttention(mode="p")``
  In both local modes only the source positions s with |s − p_t| ≤ D count; align is Eq. (9-37)
  restricted to that window. Global attention, the rest of this module, looks at every position.

Dimension letters: B batch, T query steps (target length), S source length, D feature sizes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

from helpers.runtime.errors import HelpersError, ShapeError, shape_error

__all__ = [
    "SCORE_NAMES",
    "AdditiveScore",
    "Attention",
    "AttentionResult",
    "AttentionVector",
    "ConcatScore",
    "DotScore",
    "GeneralScore",
    "LocalAttention",
    "LocalAttentionResult",
    "LocationScore",
    "ScaledDotScore",
    "attention_vector",
    "context_vector",
    "hard_weights",
    "make_score",
    "masked_softmax",
]

SCORE_NAMES = ("dot", "scaled_dot", "general", "scaled_general", "concat", "additive", "location")


# --------------------------------------------------------------------------- shape checks
def _check_dim(x, ndim: int, what: str, expected: str) -> None:
    if not isinstance(x, torch.Tensor):
        raise HelpersError(
            f"{what} 必须是 torch.Tensor (must be a tensor)，实际 (got) {type(x).__name__}。"
            f"请先用 torch.tensor(...) 转换。"
        )
    if x.dim() != ndim:
        raise shape_error(what, expected, tuple(x.shape))


def _check_query_keys(query, keys, query_size=None, key_size=None) -> None:
    """query [B, T, Dq], keys [B, S, Dk], same B; sizes checked when given."""
    _check_dim(query, 3, "query", "[B, T, Dq]")
    _check_dim(keys, 3, "keys", "[B, S, Dk]")
    B, _, Dq = query.shape
    Dk = keys.shape[-1]
    if keys.shape[0] != B:
        raise shape_error("keys", f"[B={B}, S, Dk]", tuple(keys.shape))
    if query_size is not None and Dq != query_size:
        raise shape_error("query", f"[B, T, Dq={query_size}]", tuple(query.shape))
    if key_size is not None and Dk != key_size:
        raise shape_error("keys", f"[B, S, Dk={key_size}]", tuple(keys.shape))


def _uniform_(p: torch.Tensor, fan_in: int) -> None:
    bound = 1.0 / math.sqrt(fan_in)  # the same range nn.Linear uses
    nn.init.uniform_(p, -bound, bound)


# --------------------------------------------------------------------------- Eq. (9-37)
def _broadcast_mask(scores: torch.Tensor, mask, dim: int) -> torch.Tensor:
    """Return a bool mask with the shape of ``scores``; a [B, S] mask covers every row of [B, T, S]."""
    if not isinstance(mask, torch.Tensor):
        mask = torch.as_tensor(mask)
    mask = mask.to(device=scores.device, dtype=torch.bool)
    if mask.shape == scores.shape:
        return mask
    last = dim in (-1, scores.dim() - 1)
    if last and scores.dim() == 3 and mask.dim() == 2 and mask.shape == (scores.shape[0], scores.shape[2]):
        return mask[:, None, :].expand_as(scores)  # [B, T, S]
    expected = f"{list(scores.shape)}"
    if scores.dim() == 3:
        expected += f" 或 (or) [B={scores.shape[0]}, S={scores.shape[2]}]"
    raise shape_error("mask", expected, tuple(mask.shape))


def masked_softmax(scores: torch.Tensor, mask=None, dim: int = -1) -> torch.Tensor:
    """Eq. (9-37): softmax over ``dim`` that gives exactly 0 weight where ``mask`` is False.

    ``mask`` is bool with True = attend (a valid source position). It has the shape of ``scores``,
    or [B, S] for scores [B, T, S] (the same padding for every query step). A fully masked row gives
    all zeros (not NaN), and its gradient is finite (zero).
    """
    if not isinstance(scores, torch.Tensor):
        raise HelpersError("scores 必须是 torch.Tensor (must be a tensor)。请先用 torch.tensor(...) 转换。")
    if mask is None:
        return torch.softmax(scores, dim=dim)
    mask = _broadcast_mask(scores, mask, dim)
    # A very negative *finite* number instead of -inf: a fully masked row then becomes a uniform
    # softmax (no 0/0 = NaN), which the final multiplication by the mask turns into zeros.
    very_negative = torch.finfo(scores.dtype).min
    filled = scores.masked_fill(~mask, very_negative)
    weights = torch.softmax(filled, dim=dim)
    return weights * mask.to(weights.dtype)


def hard_weights(scores: torch.Tensor, mask=None) -> torch.Tensor:
    """Hard attention: one-hot weights at the arg-max over the last dim of the *unmasked* scores.

    Masked positions are never chosen; a fully masked row gives all zeros. No gradient flows
    through the choice (it is an arg-max).
    """
    if mask is None:
        mask = torch.ones_like(scores, dtype=torch.bool)
    mask = _broadcast_mask(scores, mask, -1)
    filled = scores.detach().masked_fill(~mask, float("-inf"))
    best = filled.argmax(dim=-1, keepdim=True)  # [..., 1]
    one_hot = torch.zeros_like(scores).scatter_(-1, best, 1.0)
    any_valid = mask.any(dim=-1, keepdim=True)  # [..., 1]
    return one_hot * any_valid.to(scores.dtype)


# --------------------------------------------------------------------------- Eq. (9-40) scores
class DotScore(nn.Module):
    """Eq. (9-40), dot: score(h_t, h̄_s) = h_tᵀ h̄_s. No parameters; needs Dq == Dk."""

    def forward(self, query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        _check_query_keys(query, keys)
        if query.shape[-1] != keys.shape[-1]:
            raise shape_error("keys (dot score needs Dk == Dq)", f"[B, S, Dk={query.shape[-1]}]", tuple(keys.shape))
        return query @ keys.transpose(1, 2)  # [B, T, D] @ [B, D, S] -> [B, T, S]


class ScaledDotScore(nn.Module):
    """Scaled dot (Transformer style, extra): h_tᵀ h̄_s / sqrt(D). No parameters; needs Dq == Dk."""

    def forward(self, query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        _check_query_keys(query, keys)
        D = query.shape[-1]
        if keys.shape[-1] != D:
            raise shape_error("keys (scaled dot score needs Dk == Dq)", f"[B, S, Dk={D}]", tuple(keys.shape))
        return query @ keys.transpose(1, 2) / math.sqrt(D)  # [B, T, S]


class GeneralScore(nn.Module):
    """Eq. (9-40), general (Luong): score(h_t, h̄_s) = h_tᵀ W_a h̄_s with W_a [Dq, Dk].

    With W_a = I it is the dot score. ``scaled=True`` (extra, not in the book) divides by sqrt(Dk), as
    the scaled dot product does: the shipped luong-general model needs it to learn an alignment at all
    (see ``helpers.tools.pretrain``: unscaled, its softmax saturates on one key within the first few
    hundred steps and never moves again).
    """

    def __init__(self, query_size: int, key_size: int, scaled: bool = False):
        super().__init__()
        self.query_size, self.key_size, self.scaled = query_size, key_size, bool(scaled)
        self.W_a = nn.Parameter(torch.empty(query_size, key_size))  # [Dq, Dk]
        _uniform_(self.W_a, key_size)

    def forward(self, query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        _check_query_keys(query, keys, self.query_size, self.key_size)
        qW = query @ self.W_a  # [B, T, Dq] @ [Dq, Dk] -> [B, T, Dk]
        scores = qW @ keys.transpose(1, 2)  # [B, T, S]
        return scores / math.sqrt(self.key_size) if self.scaled else scores


class ConcatScore(nn.Module):
    """Eq. (9-40), concat (Luong): score(h_t, h̄_s) = v_aᵀ tanh(W_a [h_t; h̄_s]).

    W_a [hidden, Dq + Dk], v_a [hidden]. W_a [q; k] is computed as W_a[:, :Dq] q + W_a[:, Dq:] k,
    which is the same number without building every (t, s) concatenation.
    """

    def __init__(self, query_size: int, key_size: int, hidden: int):
        super().__init__()
        self.query_size, self.key_size, self.hidden = query_size, key_size, hidden
        self.W_a = nn.Parameter(torch.empty(hidden, query_size + key_size))  # [A, Dq + Dk]
        self.v_a = nn.Parameter(torch.empty(hidden))  # [A]
        _uniform_(self.W_a, query_size + key_size)
        _uniform_(self.v_a, hidden)

    def forward(self, query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        _check_query_keys(query, keys, self.query_size, self.key_size)
        W_q, W_k = self.W_a[:, : self.query_size], self.W_a[:, self.query_size :]
        q = query @ W_q.T  # [B, T, A]
        k = keys @ W_k.T  # [B, S, A]
        e = torch.tanh(q[:, :, None, :] + k[:, None, :, :])  # [B, T, S, A]
        return e @ self.v_a  # [B, T, S]


class AdditiveScore(nn.Module):
    """Eq. (9-40), additive (Bahdanau): score(s, h̄_s) = v_aᵀ tanh(W_q s + W_k h̄_s).

    W_q [hidden, Dq], W_k [hidden, Dk], v_a [hidden] (the book's W_1, W_2 are W_q, W_k).
    """

    def __init__(self, query_size: int, key_size: int, hidden: int):
        super().__init__()
        self.query_size, self.key_size, self.hidden = query_size, key_size, hidden
        self.W_q = nn.Parameter(torch.empty(hidden, query_size))  # [A, Dq]
        self.W_k = nn.Parameter(torch.empty(hidden, key_size))  # [A, Dk]
        self.v_a = nn.Parameter(torch.empty(hidden))  # [A]
        _uniform_(self.W_q, query_size)
        _uniform_(self.W_k, key_size)
        _uniform_(self.v_a, hidden)

    def forward(self, query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        _check_query_keys(query, keys, self.query_size, self.key_size)
        q = query @ self.W_q.T  # [B, T, A]
        k = keys @ self.W_k.T  # [B, S, A]
        e = torch.tanh(q[:, :, None, :] + k[:, None, :, :])  # [B, T, S, A]
        return e @ self.v_a  # [B, T, S]


class LocationScore(nn.Module):
    """Extra (E2), Luong et al. 2015 §3.1, location-based: a_t = softmax(W_a h_t).

    The scores come from the query h_t alone: row s of W_a [max_source_len, Dq] scores source
    position s, whatever word stands there. The keys only give S; rows beyond S are dropped, so a
    sentence may be shorter than ``max_source_len`` but not longer.
    """

    def __init__(self, query_size: int, max_source_len: int):
        super().__init__()
        self.query_size, self.max_source_len = query_size, max_source_len
        self.W_a = nn.Parameter(torch.empty(max_source_len, query_size))  # [S_max, Dq]
        _uniform_(self.W_a, query_size)

    def forward(self, query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        _check_query_keys(query, keys, self.query_size)
        S = keys.shape[1]
        if S > self.max_source_len:
            raise ShapeError(
                f"源句子太长 (source longer than max_source_len): S={S} > {self.max_source_len}。"
                f"请用更大的 max_source_len 构造 LocationScore，或截短源句子。"
            )
        return query @ self.W_a[:S].T  # [B, T, Dq] @ [Dq, S] -> [B, T, S]


def make_score(name: str, query_size: int | None = None, key_size: int | None = None, hidden: int | None = None,
               *, max_source_len: int | None = None):
    """Build a score module by name: "dot" | "scaled_dot" | "general" | "scaled_general" | "concat" | "additive" | "location".

    "location" (extra (E2)) needs ``query_size`` and ``max_source_len``, not ``key_size``.
    """
    if name == "dot":
        return DotScore()
    if name == "scaled_dot":
        return ScaledDotScore()
    if name not in SCORE_NAMES:
        raise HelpersError(
            f"未知的打分函数 (unknown score function): {name!r}。请从 {list(SCORE_NAMES)} 中选择。"
        )
    if name == "location":
        if query_size is None or max_source_len is None:
            raise HelpersError(
                "打分函数 'location' 需要尺寸 (needs sizes): 请传入 query_size=..., max_source_len=...。"
            )
        return LocationScore(query_size, max_source_len)
    if query_size is None or key_size is None:
        raise HelpersError(
            f"打分函数 {name!r} 有参数，需要尺寸 (needs sizes): 请传入 query_size=..., key_size=...。"
        )
    if name in ("general", "scaled_general"):
        return GeneralScore(query_size, key_size, scaled=name == "scaled_general")
    hidden = hidden if hidden is not None else query_size
    return ConcatScore(query_size, key_size, hidden) if name == "concat" else AdditiveScore(query_size, key_size, hidden)


# --------------------------------------------------------------------------- Eq. (9-38), (9-39)
def context_vector(weights: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    """Eq. (9-38): c_t = Σ_s α_ts h̄_s. weights [B, T, S] or [B, S], values [B, S, Dv] -> [B, T, Dv] or [B, Dv]."""
    _check_dim(values, 3, "values", "[B, S, Dv]")
    B, S, _ = values.shape
    one_step = isinstance(weights, torch.Tensor) and weights.dim() == 2
    w = weights[:, None, :] if one_step else weights  # [B, T, S]
    _check_dim(w, 3, "weights", "[B, T, S] 或 (or) [B, S]")
    if w.shape[0] != B or w.shape[2] != S:
        raise shape_error("weights", f"[B={B}, T, S={S}] 或 (or) [B={B}, S={S}]", tuple(weights.shape))
    context = w @ values  # [B, T, S] @ [B, S, Dv] -> [B, T, Dv]
    return context[:, 0] if one_step else context


def attention_vector(context: torch.Tensor, h: torch.Tensor, W_c: torch.Tensor) -> torch.Tensor:
    """Eq. (9-39): h̃_t = tanh(W_c [c_t; h_t]) — note the order: context first, then the state.

    context [..., Dc], h [..., Dh], W_c [Dout, Dc + Dh] -> [..., Dout].
    """
    if not isinstance(context, torch.Tensor) or not isinstance(h, torch.Tensor):
        raise HelpersError("context 与 h 必须是 torch.Tensor (must be tensors)。")
    if context.shape[:-1] != h.shape[:-1]:
        raise shape_error("h", f"{list(context.shape[:-1])} + [Dh]", tuple(h.shape))
    _check_dim(W_c, 2, "W_c", "[Dout, Dc + Dh]")
    if W_c.shape[1] != context.shape[-1] + h.shape[-1]:
        raise shape_error("W_c", f"[Dout, {context.shape[-1] + h.shape[-1]}]", tuple(W_c.shape))
    return torch.tanh(torch.cat([context, h], dim=-1) @ W_c.T)  # [..., Dout]


class AttentionVector(nn.Module):
    """Eq. (9-39) as a module with the parameter W_c [out_size, context_size + query_size]."""

    def __init__(self, context_size: int, query_size: int, out_size: int | None = None):
        super().__init__()
        out_size = out_size if out_size is not None else query_size
        self.W_c = nn.Parameter(torch.empty(out_size, context_size + query_size))  # [H, Dc + Dh]
        _uniform_(self.W_c, context_size + query_size)

    def forward(self, context: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
        return attention_vector(context, h, self.W_c)  # [..., H]


# --------------------------------------------------------------------------- the Attention module
def _score_module(score, query_size, key_size, hidden, max_source_len) -> nn.Module:
    """A score module given as a module, or built from its name."""
    if isinstance(score, str):
        score = make_score(score, query_size, key_size, hidden, max_source_len=max_source_len)
    if not isinstance(score, nn.Module):
        raise HelpersError(
            f"score 必须是打分模块或名字 (a score module or a name)，例如 {list(SCORE_NAMES)}；"
            f"实际 (got) {type(score).__name__}。"
        )
    return score


def _check_values(values, B: int, S: int) -> None:
    _check_dim(values, 3, "values", "[B, S, Dv]")
    if values.shape[:2] != (B, S):
        raise shape_error("values", f"[B={B}, S={S}, Dv]", tuple(values.shape))


@dataclass
class AttentionResult:
    """What one attention call returns (a one-step query gives [B, Dv], [B, S], [B, S])."""

    context: torch.Tensor  # [B, T, Dv]  Eq. (9-38)
    weights: torch.Tensor  # [B, T, S]   Eq. (9-37), α
    scores: torch.Tensor  # [B, T, S]    Eq. (9-40), before the softmax


class Attention(nn.Module):
    """Query, Keys, Values -> scores (9-40) -> weights (9-37) -> context (9-38). Fig. 9-24, 9-25.

    ``score`` is a score module or one of the names in ``SCORE_NAMES``; a name with parameters needs
    ``query_size`` and ``key_size`` (and optionally ``hidden`` for concat/additive, default query_size;
    "location" needs ``query_size`` and ``max_source_len``).
    ``hard=True`` replaces the soft weights by one-hot weights at the arg-max of the unmasked scores.
    Call: ``attn(query, keys, values=None, mask=None)``; values default to keys; mask [B, S] or
    [B, T, S], bool, True = attend.
    """

    def __init__(self, score="dot", hard: bool = False, *, query_size=None, key_size=None, hidden=None,
                 max_source_len=None):
        super().__init__()
        self.score = _score_module(score, query_size, key_size, hidden, max_source_len)
        self.hard = hard

    def forward(self, query, keys, values=None, mask=None) -> AttentionResult:
        one_step = isinstance(query, torch.Tensor) and query.dim() == 2
        q = query[:, None, :] if one_step else query  # [B, T, Dq]
        _check_query_keys(q, keys)
        B, T, _ = q.shape
        S = keys.shape[1]
        values = keys if values is None else values
        _check_values(values, B, S)
        scores = self.score(q, keys)  # [B, T, S]                      Eq. (9-40)
        if self.hard:
            weights = hard_weights(scores, mask)  # [B, T, S] one-hot
        else:
            weights = masked_softmax(scores, mask)  # [B, T, S]         Eq. (9-37)
        context = weights @ values  # [B, T, Dv]                         Eq. (9-38)
        if one_step:
            return AttentionResult(context[:, 0], weights[:, 0], scores[:, 0])  # [B, Dv], [B, S], [B, S]
        return AttentionResult(context, weights, scores)


# --------------------------------------------------------------------------- extras: local attention
@dataclass
class LocalAttentionResult(AttentionResult):
    """An ``AttentionResult`` plus the centre p_t of each window (extra (E3) or (E4))."""

    positions: torch.Tensor  # [B, T]  p_t on the 1-based source scale


LOCAL_MODES = ("m", "p")


class LocalAttention(nn.Module):
    """Local attention (Luong et al. 2015 §3.2): local-m, extra (E3), and local-p, extras (E4), (E5).

    For each query h_t a window [p_t − D, p_t + D] of source positions s = 1..S_i (S_i = true length of
    sentence i, from ``mask``) is kept; align(h_t, h̄_s) is Eq. (9-37) restricted to the window.

    * ``mode="m"`` (E3): p_t = min(t, S_i), t = 1..T the query's step; a_t(s) = align(h_t, h̄_s), so
      every row with a valid position sums to 1. No parameters besides the score's.
    * ``mode="p"`` (default), (E4): p_t = S_i · sigmoid(v_pᵀ tanh(W_p h_t)); (E5): a_t(s) =
      align(h_t, h̄_s) · exp(−(s − p_t)² / (2σ²)), σ = D / 2, so, as in the paper, a row sums to at
      most 1. W_p [hidden, Dq] and v_p [hidden] predict the position (``hidden`` defaults to
      ``query_size``, which defaults to the score module's).

    ``score`` is a score module or a name (as for ``Attention``); ``window`` is D (an int ≥ 1).
    Call: ``attn(query, keys, values=None, mask=None, t=None)``, padding at the end of each sentence;
    returns a ``LocalAttentionResult`` (context, weights, scores, positions). A [B, Dq] query is one
    step; local-m then needs its step ``t`` (1-based); a [B, T, Dq] query holds the steps t = 1..T.
    """

    def __init__(self, score="general", window: int = 2, *, mode: str = "p", query_size=None, key_size=None,
                 hidden=None, max_source_len=None):
        super().__init__()
        if isinstance(window, bool) or not isinstance(window, int) or window < 1:
            raise HelpersError(
                f"窗口半径 D 必须是正整数 (window must be an int ≥ 1)，实际 (got) {window!r}。例如 window=2。"
            )
        if mode not in LOCAL_MODES:
            raise HelpersError(
                f"局部注意力的模式 (mode) 应为 'm'（local-m，p_t = t）或 'p'（local-p，预测 p_t），实际 (got) {mode!r}。"
            )
        self.score = _score_module(score, query_size, key_size, hidden, max_source_len)
        query_size = query_size if query_size is not None else getattr(self.score, "query_size", None)
        self.mode, self.query_size, self.window, self.sigma = mode, query_size, window, window / 2
        if mode == "m":
            return
        if query_size is None:
            raise HelpersError(
                "local-p 需要查询的维度 (needs query_size) 来构造 W_p：请传入 query_size=...。"
            )
        hidden = hidden if hidden is not None else query_size
        self.W_p = nn.Parameter(torch.empty(hidden, query_size))  # [A, Dq]
        self.v_p = nn.Parameter(torch.empty(hidden))  # [A]
        _uniform_(self.W_p, query_size)
        _uniform_(self.v_p, hidden)

    def predict_positions(self, query: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """Extra (E4): p_t = S_i · sigmoid(v_pᵀ tanh(W_p h_t)). query [B, T, Dq], lengths [B, T] -> [B, T]."""
        return lengths * torch.sigmoid(torch.tanh(query @ self.W_p.T) @ self.v_p)  # [B, T]

    def _steps(self, T: int, t, one_step: bool, like: torch.Tensor) -> torch.Tensor:
        """The 1-based steps t of the queries, [T] (local-m)."""
        if not one_step:
            return torch.arange(1, T + 1, device=like.device, dtype=like.dtype)  # [T]
        if isinstance(t, bool) or not isinstance(t, int) or t < 1:
            raise HelpersError(
                f"local-m 的一步查询需要解码步 t (needs the step t, an int ≥ 1，从 1 数起)，实际 (got) {t!r}。"
                "例如 attn(h_t, keys, mask=mask, t=3)；或一次传入所有步的查询 [B, T, Dq]。"
            )
        return torch.tensor([float(t)], device=like.device, dtype=like.dtype)  # [1]

    def forward(self, query, keys, values=None, mask=None, t=None) -> LocalAttentionResult:
        one_step = isinstance(query, torch.Tensor) and query.dim() == 2
        q = query[:, None, :] if one_step else query  # [B, T, Dq]
        _check_query_keys(q, keys, self.query_size)
        B, T, _ = q.shape
        S = keys.shape[1]
        values = keys if values is None else values
        _check_values(values, B, S)
        scores = self.score(q, keys)  # [B, T, S]
        valid = torch.ones_like(scores, dtype=torch.bool) if mask is None else _broadcast_mask(scores, mask, -1)
        lengths = valid.sum(dim=-1).to(q.dtype)  # [B, T]   S_i, not the padded S
        if self.mode == "m":
            p = torch.minimum(self._steps(T, t, one_step, q).expand_as(lengths), lengths)  # [B, T]  (E3)
        else:
            p = self.predict_positions(q, lengths)  # [B, T]                                 (E4)
        s = torch.arange(1, S + 1, device=q.device, dtype=q.dtype)  # [S]  positions 1..S
        distance = s - p[..., None]  # [B, T, S]
        in_window = valid & (distance.abs() <= self.window)  # [B, T, S]
        weights = masked_softmax(scores, in_window)  # [B, T, S]   Eq. (9-37) inside the window
        if self.mode == "p":
            weights = weights * torch.exp(-(distance**2) / (2 * self.sigma**2))  # [B, T, S]  (E5)
        context = weights @ values  # [B, T, Dv]                                              Eq. (9-38)
        if one_step:
            return LocalAttentionResult(context[:, 0], weights[:, 0], scores[:, 0], p[:, 0])
        return LocalAttentionResult(context, weights, scores, p)
