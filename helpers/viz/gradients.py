"""The bottleneck in gradients: how strongly an output word's loss reaches each source word.

* ``plot_gradient_by_distance(profiles)``  one line per model: the mean share of the gradient norm
  ‖∂ℓ_t/∂e_s‖ that falls on source words at distance d from the aligned word (d = 0: the aligned
  word itself), from ``helpers.analysis.attribution.gradient_by_distance``
"""

from __future__ import annotations

import matplotlib.pyplot as plt

from helpers.viz import setup_chinese_font

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
