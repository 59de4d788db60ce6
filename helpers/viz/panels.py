"""Alignment panels side by side, as in Luong et al. 2015 Fig. 7 (global, local-m, local-p, gold).

``plot_alignment_panels({"全局": α, "local-m": α_m, ...}, src, tgt, sure=..., possible=...)`` draws one
heatmap per weight matrix [T, S] on shared axes, then a last panel with the gold alignment itself
(``gold_matrix``: 1 for a sure link, 0.5 for a possible one), so a reader compares every attention
pattern with the same answer. Each heatmap carries the gold boxes too.
"""

from __future__ import annotations

import numpy as np

__all__ = ["gold_matrix", "plot_alignment_panels"]


def gold_matrix(n_src: int, n_tgt: int, sure, possible=()) -> np.ndarray:
    """[n_tgt, n_src]: 1 where a sure link (English i, Chinese j) is, 0.5 where only a possible one is."""
    m = np.zeros((n_tgt, n_src))
    for i, j in possible:
        m[j, i] = 0.5
    for i, j in sure:
        m[j, i] = 1.0
    return m


def plot_alignment_panels(panels: dict, src_tokens, tgt_tokens, *, sure=(), possible=(), size: float = 4.6):
    """One heatmap per entry of ``panels`` (title -> weights [T, S]) and a gold panel; returns the figure."""
    import matplotlib.pyplot as plt

    from helpers.viz import plot_attention

    src, tgt = list(src_tokens), list(tgt_tokens)
    n = len(panels) + 1
    fig, axes = plt.subplots(1, n, figsize=(size * n, size * max(1.0, len(tgt) / len(src)) * 0.95),
                             layout="constrained")
    for ax, (title, weights) in zip(axes, panels.items()):
        plot_attention(np.asarray(weights, dtype=float), src, tgt, gold=set(sure), possible=set(possible), ax=ax,
                       annotate=False, title=title)
    plot_attention(gold_matrix(len(src), len(tgt), sure, possible), src, tgt, gold=set(sure),
                   possible=set(possible), ax=axes[-1], annotate=False, title="标准对齐（gold）")
    return fig
