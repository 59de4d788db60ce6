"""Decoding rules for long sentences: length normalisation, coverage penalty, end-of-sentence guard.

Past 20 tokens the attention models of this project stopped early, dropped clauses or repeated them
(issue 22). Three remedies from the literature, used by ``helpers.decode``:

* **Length normalisation** (beam search). Beam search compares hypotheses of different lengths by
  log p(y|x) / lp(y); without it the shorter one wins, because every token multiplies in a
  probability < 1. Two forms of lp:

  - ``"power"``: lp(y) = |y|^α (|y| counts the <eos>; α = 1 is the mean log-probability per token);
  - ``"gnmt"``:  lp(y) = ((5 + |y|) / (5 + 1))^α (Wu et al. 2016, "Google's Neural Machine Translation
    System", Eq. 14).

* **Coverage penalty** (beam search, Wu et al. 2016, Eq. 14):
  cp(x; y) = β · Σ_i log(min(Σ_j α_ji, 1)), summed over the S source words i, with α_ji the attention
  weight on source word i while producing target token j (every row, the <eos> step included).
  A source word that the attention never visited has a total weight near 0 and its log is very negative,
  so a hypothesis that skipped a clause loses. A word attended with total weight ≥ 1 costs nothing
  (min(…, 1)), so attending a word twice earns no bonus. The final score of a hypothesis is
  log p(y|x) / lp(y) + cp(x; y). A total weight below 1e-9 is counted as 1e-9 (log 0 would be −∞ for
  every hypothesis that skipped any word, and they could no longer be told apart).

* **End-of-sentence guard** (greedy and beam search; our own rule). ``eos_guard = (k, m)``: the
  decoder may emit <eos> at step t only when the attention of the steps before t has put a total
  weight of at least m on the last k source tokens, Σ_{j<t} Σ_{i > S-k} α_ji ≥ m. The English sentences
  of the corpus end with a final word and "." (or "?"), and the Chinese ones with 。 (or ？), which the
  models align with that punctuation: a translation that has really reached the end has attended there,
  one that stops after the first clauses has not. Only the rows of tokens already produced count, not
  the row of the step that would emit <eos>: a model that "wants" to stop may well look at the end
  right then. When <eos> is forbidden the search takes the next best token; the reported score stays
  the model's log-probability of what was produced.

A model without attention (``none``) has no α: neither the coverage penalty nor the guard applies to it.
"""

from __future__ import annotations

import numpy as np
import torch

from helpers.runtime.errors import HelpersError, check_float, check_int

__all__ = ["COVERAGE_FLOOR", "LENGTH_NORMS", "check_eos_guard", "coverage_penalty", "eos_allowed", "length_norm"]

LENGTH_NORMS = ("power", "gnmt")
COVERAGE_FLOOR = 1e-9  # a source word's total attention is counted as at least this (log 0 = -inf)
COVERAGE_RANGE = (0.0, 10.0)  # β: 0 = no coverage penalty; Wu et al. 2016 tune it in 0..1
GUARD_LAST_MAX = 10
GUARD_MASS_RANGE = (0.0, 10.0)


def length_norm(length: int, alpha: float, form: str = "power") -> float:
    """lp(y) for an output of ``length`` tokens (the <eos> counted): |y|^α or ((5 + |y|) / 6)^α."""
    if form == "power":
        return max(int(length), 1) ** alpha
    if form == "gnmt":
        return ((5 + int(length)) / 6) ** alpha
    raise HelpersError(f"length_norm 只能是 {list(LENGTH_NORMS)} 之一 (unknown length normalisation)，"
                       f"实际 (got) {form!r}。例如 length_norm='gnmt'（Wu et al. 2016）。")


def coverage_penalty(attention, beta: float) -> float:
    """cp = β · Σ_i log(min(Σ_j α_ji, 1)) of one hypothesis: attention [T, S] (rows = target steps)."""
    if not beta:
        return 0.0
    a = attention.detach().cpu().double().numpy() if isinstance(attention, torch.Tensor) else np.asarray(attention, float)
    total = a.sum(axis=0)  # [S] total attention each source word received
    return float(beta * np.log(np.clip(np.minimum(total, 1.0), COVERAGE_FLOOR, None)).sum())


def eos_allowed(cumulative: torch.Tensor, src_lens: torch.Tensor, guard) -> torch.Tensor:
    """Bool [B]: may row b emit <eos> now? cumulative [B, S] = Σ_{j<t} α_j; guard = (k, m) or None."""
    B, S = cumulative.shape
    if guard is None:
        return torch.ones(B, dtype=torch.bool)
    k, m = guard
    pos = torch.arange(S)[None, :]  # [1, S]
    lens = src_lens.cpu().long()[:, None]  # [B, 1]
    last = (pos < lens) & (pos >= lens - k)  # [B, S] the last k real source tokens
    return (cumulative.cpu().double() * last).sum(dim=1) >= m - 1e-9  # [B]


def check_eos_guard(guard):
    """None, or a pair (k, m): k an int in 1..10 (last source tokens), m a number in 0..10 (weight)."""
    example = "例如 eos_guard=(2, 0.5)：前面各步在最后 2 个源词上的注意力之和至少 0.5 才能结束；None = 不限制。"
    if guard is None:
        return None
    if isinstance(guard, (str, bytes, dict)) or not hasattr(guard, "__len__") or len(guard) != 2:
        raise HelpersError(f"eos_guard 应为 None 或 (k, m) 两个数 (None or a pair (k, m))，实际 (got) {guard!r}。"
                           f"{example}")
    k = check_int("eos_guard 的 k (last source tokens)", guard[0], 1, GUARD_LAST_MAX, example)
    m = check_float("eos_guard 的 m (attention mass)", guard[1], *GUARD_MASS_RANGE, example)
    return (k, m)


def check_coverage(beta) -> float:
    """β of the coverage penalty: a finite number in 0..10."""
    return check_float("coverage_penalty", beta, *COVERAGE_RANGE,
                       "例如 coverage_penalty=0.2（Wu et al. 2016 的 β；0 = 不用覆盖惩罚 no coverage penalty）。")


def check_length_norm(form) -> str:
    if form not in LENGTH_NORMS:
        raise HelpersError(f"length_norm 只能是 {list(LENGTH_NORMS)} 之一 (unknown length normalisation)，"
                           f"实际 (got) {form!r}。'power' = |y|^α，'gnmt' = ((5+|y|)/6)^α（Wu et al. 2016）。")
    return form
