"""Compare a hand computation with the helpers' version, and say what the comparison found (``compare``).

A notebook computes a step by hand, then checks it against ``helpers`` before importing it. The line
it prints must be the comparison's result, not a fixed "一致 ✔": a student who changes the hand
computation (a missing softmax, a transposed matrix) must see that it no longer agrees, and where.

``compare(what, pairs)`` takes one or more (name, mine, reference) triples (numbers, lists, numpy
arrays or torch tensors), prints one line per triple and returns True when all agree within ``atol``.
"""

from __future__ import annotations

import numpy as np


def _array(value) -> np.ndarray:
    if hasattr(value, "detach"):  # a torch tensor
        value = value.detach().cpu().numpy()
    return np.asarray(value, dtype=float)


def difference(mine, reference) -> tuple[float, tuple[int, ...] | None, str]:
    """(largest absolute difference, index where it is, problem); problem is "" when shapes match.

    A shape mismatch gives (inf, None, a message in Chinese with the two shapes)."""
    a, b = _array(mine), _array(reference)
    if a.shape != b.shape:
        return float("inf"), None, f"形状不同 (shape mismatch)：你的是 {list(a.shape)}，helpers 的是 {list(b.shape)}"
    if a.size == 0:
        return 0.0, None, ""
    gap = np.abs(a - b)
    gap = np.where(np.isnan(a) & np.isnan(b), 0.0, np.where(np.isnan(gap), np.inf, gap))
    where = np.unravel_index(int(np.argmax(gap)), gap.shape) if gap.ndim else ()
    return float(gap.max()), tuple(int(k) for k in where), ""


def compare(what: str, pairs, atol: float = 1e-5) -> bool:
    """Print whether each (name, mine, reference) of ``pairs`` agrees within ``atol``; True if all do.

    ``what`` names the comparison for the reader, e.g. "手算的三步 vs helpers 的 retrieve()"."""
    verdicts = []
    lines = []
    for name, mine, reference in pairs:
        gap, where, problem = difference(mine, reference)
        ok = not problem and gap <= atol
        verdicts.append(ok)
        if problem:
            lines.append(f"  ✘ {name}：{problem}")
        elif ok:
            lines.append(f"  ✔ {name}：一致（最大差 {gap:.1e}）")
        else:
            at = f"，在位置 {list(where)}" if where else ""
            lines.append(f"  ✘ {name}：不一致，最大差 {gap:.3g}{at}（允许 {atol:g}）")
    head = "一致 ✔" if all(verdicts) else "不一致 ✘：检查上面的手算步骤"
    print(f"{what}：{head}")
    print("\n".join(lines))
    return all(verdicts)
