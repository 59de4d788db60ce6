"""Gallery figures of notebook 07a (and the AER histogram of 07b): one sentence per reordering phenomenon, checked row by row; the
Bahdanau et al. 2014 Fig. 3 analogue; global vs local-m vs gold after Luong et al. 2015 Fig. 7.

* ``Gallery(models, chosen, labels)``: ``show(tags, name)`` draws the chosen sentences of ``tags``
  side by side (``plot_attention_gallery``) and prints each one's row check (``helpers.analysis.rows``);
  ``rows`` (tag -> check_rows result, exactly translated sentences only) and ``translated`` (tag ->
  translation) collect what was shown
* ``local_m_rows(attention, n_src, window)``: each row of a global attention matrix restricted to the
  local-m window [p_t − D, p_t + D], p_t = min(t, S) (t from 1), and renormalised: what local-m with the
  same trained scores would weigh at the same decoder states
* ``plot_global_local_gold(t, pair, window)``: three panels: global, local-m, the gold sure links
* ``plot_aer_histogram(values, title)``: how the per-sentence AER of a split is distributed
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from helpers.analysis.rows import check_rows
from helpers.viz import plot_attention, setup_chinese_font
from helpers.viz.plots import attention_panel_size, plot_attention_gallery


class Gallery:
    """Shows chosen test sentences with one model and remembers the row checks."""

    def __init__(self, models: dict, chosen: dict, labels: dict):
        self.models, self.chosen, self.labels = models, chosen, labels
        self.rows: dict = {}
        self.translated: dict = {}

    def show(self, tags, name: str = "luong-general") -> None:
        pairs = [self.chosen[tag] for tag in tags]
        _, results = plot_attention_gallery(self.models[name], pairs, [self.labels.get(tag, tag) for tag in tags],
                                            name=name)
        for tag, pair, (t, _) in zip(tags, pairs, results):
            print(f"{self.labels.get(tag, tag)}  EN: {' '.join(pair.src)}\n    模型: {t.text}    参考: {''.join(pair.tgt)}")
            self.translated[tag] = t
            if t.tgt_tokens == list(pair.tgt):
                self.rows[tag] = check_rows(t, pair)
                print("    " + self.rows[tag][-1])
        plt.show()


def local_m_rows(attention, n_src: int, window: int = 2) -> np.ndarray:
    """[T, S] rows kept only inside [p_t − D, p_t + D], p_t = min(t, S) (t from 1), then renormalised
    (a row with no weight in its window is spread evenly over the window)."""
    att = np.asarray(attention, dtype=float)[:, :n_src]
    out = np.zeros_like(att)
    for j in range(att.shape[0]):
        centre = min(j + 1, n_src) - 1  # 0-based p_t
        lo, hi = max(0, centre - window), min(n_src, centre + window + 1)
        part = att[j, lo:hi]
        out[j, lo:hi] = part / part.sum() if part.sum() > 1e-12 else 1.0 / (hi - lo)
    return out


def gold_matrix(pair) -> np.ndarray:
    """[T, S]: 1 on the sure links, each row divided by its number of links (a row without one stays 0)."""
    g = np.zeros((len(pair.tgt), len(pair.src)))
    for i, j in pair.sure:
        g[j, i] = 1.0
    n = g.sum(axis=1, keepdims=True)
    return np.divide(g, n, out=np.zeros_like(g), where=n > 0)


def plot_global_local_gold(t, pair, window: int = 2, name: str = "luong-general"):
    """Global attention, the same rows under the local-m window, and the gold links, side by side."""
    setup_chinese_font()
    n_t, n_s = len(pair.tgt), len(pair.src)
    w, h = attention_panel_size(n_s, n_t)
    fig, axes = plt.subplots(1, 3, figsize=(3 * w, h + 0.4), layout="constrained")
    panels = [(t.attention[:n_t, :n_s], f"{name}：全局 (global)"),
              (local_m_rows(t.attention[:n_t], n_s, window), f"同一组分数，local-m 窗口 D = {window}"),
              (gold_matrix(pair), "标准对齐 (gold, sure)")]
    for ax, (matrix, title) in zip(axes, panels):
        plot_attention(matrix, pair.src, pair.tgt, ax=ax, title=title, annotate=False)
    return fig


def plot_aer_histogram(values, title: str = ""):
    """Histogram of per-sentence AER values in bins of 0.05 from 0 to 1; returns the axes."""
    setup_chinese_font()
    fig, ax = plt.subplots(figsize=(6.5, 3.0), layout="constrained")
    ax.hist(list(values), bins=np.linspace(0, 1, 21), color="tab:blue", edgecolor="white")
    ax.set_xlabel("每句的 AER（越小越好）")
    ax.set_ylabel("句数")
    if title:
        ax.set_title(title, fontsize=10)
    return ax
