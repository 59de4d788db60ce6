"""The two computation paths of one decoding step, side by side (notebook 05; Luong et al. 2015, §3.1).

* ``PATHS``                   the boxes of each path, in order: Luong h_t → a_t → c_t → h̃_t → y_t
                              (the RNN runs first, its new state is the query) and Bahdanau
                              h_{t-1} → a_t → c_t → h_t → y_t (the previous state is the query, c_t
                              goes into the RNN)
* ``plot_computation_paths()`` both paths as two rows of boxes and arrows; returns the Figure
"""

from __future__ import annotations

import matplotlib.pyplot as plt

from helpers.viz import setup_chinese_font

__all__ = ["PATHS", "plot_computation_paths"]

# (label, note under the box, colour); the query box of each path is drawn in orange
PATHS = {
    "Luong（乘法形式）": [
        ("hₜ", "RNN 先走一步\n[e(yₜ₋₁); h̃ₜ₋₁]", "tab:orange"),
        ("aₜ", "score(hₜ, h̄ₛ)\n→ softmax", "tab:red"),
        ("cₜ", "Σ aₜₛ h̄ₛ", "tab:green"),
        ("h̃ₜ", "tanh(W_c[cₜ; hₜ])", "tab:purple"),
        ("yₜ", "softmax(W_s h̃ₜ)", "0.5"),
    ],
    "Bahdanau（加法形式）": [
        ("sₜ₋₁", "上一步的状态\n（查询）", "tab:orange"),
        ("aₜ", "score(sₜ₋₁, hⱼ)\n→ softmax", "tab:red"),
        ("cₜ", "Σ aₜⱼ hⱼ", "tab:green"),
        ("sₜ", "RNN 走一步\n[e(yₜ₋₁); cₜ]", "tab:blue"),
        ("yₜ", "输出层\n(sₜ, cₜ, yₜ₋₁)", "0.5"),
    ],
}


def plot_computation_paths(paths: dict | None = None):
    """Draw each path of ``paths`` (default ``PATHS``) as a row of boxes joined by arrows; returns the Figure."""
    setup_chinese_font()
    paths = PATHS if paths is None else paths
    n_cols = max(len(p) for p in paths.values())
    fig, ax = plt.subplots(figsize=(2.0 + 2.1 * n_cols, 1.9 * len(paths)), layout="constrained")
    for row, (name, boxes) in enumerate(paths.items()):
        y = (len(paths) - 1 - row) * 1.9
        ax.text(-0.9, y, name, ha="right", va="center", fontsize=11)
        for k, (label, note, color) in enumerate(boxes):
            x = 2.1 * k
            ax.text(x, y, label, ha="center", va="center", fontsize=14,
                    bbox=dict(boxstyle="round,pad=0.45", facecolor="white", edgecolor=color, linewidth=2))
            ax.text(x, y - 0.62, note, ha="center", va="top", fontsize=8.5, color="0.25")
            if k:
                ax.annotate("", xy=(x - 0.45, y), xytext=(x - 2.1 + 0.45, y),
                            arrowprops=dict(arrowstyle="-|>", color="0.3", lw=1.4))
    ax.set_xlim(-3.6, 2.1 * (n_cols - 1) + 0.9)
    ax.set_ylim(-1.6, 1.9 * (len(paths) - 1) + 0.6)
    ax.axis("off")
    ax.set_title("一步解码的两条计算路径：查询 (query) 是新状态还是上一步的状态", fontsize=11)
    return fig
