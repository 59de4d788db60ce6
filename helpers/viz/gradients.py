"""The bottleneck in gradients: how strongly an output word's loss reaches each source word.

* ``plot_gradient_by_distance(profiles)``  one line per model: the mean share of the gradient norm
  ‖∂ℓ_t/∂e_s‖ that falls on source words at distance d from the aligned word (d = 0: the aligned
  word itself), from ``helpers.analysis.attribution.gradient_by_distance``
* ``plot_attention_vs_gradient(attention, gxi, src_tokens, tgt_tokens, name)``  two heatmaps side by
  side: the attention weights α and gradient × input (rows scaled to sum to 1) of the same sentence
"""

from __future__ import annotations

import matplotlib.pyplot as plt

from helpers.viz import plot_attention, setup_chinese_font
from helpers.viz.plots import attention_panel_size

_STYLE = {"none": dict(color="#d62728", linestyle="--", marker="o"),
          "rnnencdec": dict(color="#8c564b", linestyle="--", marker="s")}


def plot_gradient_by_distance(profiles: dict, title: str = "", ax=None):
    """Mean gradient share by source distance, one line per ``{name: DistanceProfile}``; returns the axes."""
    setup_chinese_font()
    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 3.8), layout="constrained")
    for name, profile in profiles.items():
        ax.plot(profile.distances, profile.mean_share, label=name, **_STYLE.get(name, dict(marker="s")))
    ax.set_xlabel("源词到对齐词的距离 |s − a(t)|（0 = 对齐的那个英文词）")
    ax.set_ylabel("梯度范数的平均份额")
    ax.set_xticks(list(next(iter(profiles.values())).distances))
    ax.grid(alpha=0.3)
    ax.legend()
    if title:
        ax.set_title(title)
    return ax


def plot_attention_vs_gradient(attention, gxi, src_tokens, tgt_tokens, name: str = ""):
    """α (left) and gradient × input (right) of one sentence, both [T, S] with the <eos> row left out;
    returns the figure."""
    setup_chinese_font()
    n_t, n_s = len(tgt_tokens), len(src_tokens)
    w, h = attention_panel_size(n_s, n_t)
    fig, axes = plt.subplots(1, 2, figsize=(2 * w, h), layout="constrained")
    prefix = f"{name}：" if name else ""
    plot_attention(attention[:n_t, :n_s], src_tokens, tgt_tokens, ax=axes[0], title=prefix + "注意力权重 α")
    plot_attention(gxi[:n_t, :n_s], src_tokens, tgt_tokens, ax=axes[1], title=prefix + "梯度 × 输入（每行归一化）")
    return fig
