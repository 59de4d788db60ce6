"""What the decoder gets from the source at each step, compared with every encoder state (notebook 03, 9.10.2).

* ``source_similarity(info, keys)``  cosine similarity [T, S] of each step's source information (a row
                                     of ``info``: the fixed encoder summary of the 9.9 decoder, or the
                                     context vector c_t of Eq. 9-38) with each encoder state h̄_s
* ``plot_source_similarity(panels, src_tokens, tgt_tokens)``  such matrices side by side as heatmaps,
                                     values written in the cells, each row's largest value framed

The point of the figure: without attention every row is the same (the source information does not
depend on the step t); with attention the framed cell moves with t, following the attended word.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Rectangle

from helpers.errors import HelpersError
from helpers.viz import setup_chinese_font

__all__ = ["plot_source_similarity", "source_similarity"]


def _matrix(x, what: str) -> np.ndarray:
    if hasattr(x, "detach"):
        x = x.detach().cpu().numpy()
    m = np.asarray(x, dtype=float)
    if m.ndim != 2:
        raise HelpersError(f"{what} 应为二维矩阵 (must be 2-D)，实际形状 (got shape) {m.shape}。")
    return m


def source_similarity(info, keys) -> np.ndarray:
    """Cosine similarity of every row of ``info`` [T, H] with every row of ``keys`` [S, H] -> [T, S].

    A zero row (e.g. an encoder state at padding) gets similarity 0.
    """
    a, b = _matrix(info, "info [T, H]"), _matrix(keys, "keys [S, H]")
    if a.shape[1] != b.shape[1]:
        raise HelpersError(f"info 与 keys 的维度不同 (different sizes): {a.shape[1]} vs {b.shape[1]}。"
                           "两者都应是 H 维向量 (both must be H-dimensional)。")
    na = np.linalg.norm(a, axis=1, keepdims=True)  # [T, 1]
    nb = np.linalg.norm(b, axis=1, keepdims=True)  # [S, 1]
    denom = na @ nb.T  # [T, S]
    return np.divide(a @ b.T, denom, out=np.zeros((a.shape[0], b.shape[0])), where=denom > 0)  # [T, S]


def plot_source_similarity(panels: dict, src_tokens, tgt_tokens):
    """Heatmaps side by side, one per ``{title: [T, S] matrix}``; each row's maximum framed. Returns the Figure."""
    setup_chinese_font()
    if not panels:
        raise HelpersError("panels 不能为空 (no panels): 传入 {标题: [T, S] 矩阵}。")
    src, tgt = list(src_tokens), list(tgt_tokens)
    mats = {title: _matrix(m, title) for title, m in panels.items()}
    for title, m in mats.items():
        if m.shape != (len(tgt), len(src)):
            raise HelpersError(f"“{title}” 的形状 {m.shape} 与词数不符 (shape does not match tokens): "
                               f"应为 [T={len(tgt)}, S={len(src)}]。")
    width = 1.3 + 0.62 * len(src)
    fig, axes = plt.subplots(1, len(mats), figsize=(width * len(mats) + 0.9, 1.5 + 0.5 * len(tgt)),
                             layout="constrained", squeeze=False)
    image = None
    for ax, (title, m) in zip(axes[0], mats.items()):
        image = ax.imshow(m, vmin=-1, vmax=1, cmap="RdBu_r", aspect="auto")
        for j in range(m.shape[0]):
            for i in range(m.shape[1]):
                ax.text(i, j, f"{m[j, i]:.2f}", ha="center", va="center", fontsize=8,
                        color="white" if abs(m[j, i]) > 0.6 else "black")
            best = int(np.argmax(m[j]))
            ax.add_patch(Rectangle((best - 0.5, j - 0.5), 1, 1, fill=False, edgecolor="black", linewidth=2))
        ax.set_xticks(range(len(src)), src)
        ax.set_yticks(range(len(tgt)), tgt)
        ax.set_xlabel("编码器状态 h̄ₛ (source)")
        ax.set_title(title, fontsize=10)
    axes[0][0].set_ylabel("解码步骤 t (target)")
    fig.colorbar(image, ax=list(axes[0]), shrink=0.8, label="余弦相似度 (cosine)")
    return fig
