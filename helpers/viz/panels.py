"""Alignment panels side by side, as in Luong et al. 2015 Fig. 7 (global, local-m, local-p, gold).

``plot_alignment_panels({"全局": α, "local-m": α_m, ...}, src, tgt, sure=..., possible=...)`` draws one
heatmap per weight matrix [T, S] on shared axes, then a last panel with the gold alignment itself
(``gold_matrix``: 1 for a sure link, 0.5 for a possible one), so a reader compares every attention
pattern with the same answer. Each heatmap carries the gold boxes too.
"""

from __future__ import annotations

import numpy as np

__all__ = ["gold_matrix", "plot_alignment_panels", "plot_alpha_table", "plot_padding_bars", "plot_translation_pairs"]


def gold_matrix(n_src: int, n_tgt: int, sure, possible=()) -> np.ndarray:
    """[n_tgt, n_src]: 1 where a sure link (English i, Chinese j) is, 0.5 where only a possible one is."""
    m = np.zeros((n_tgt, n_src))
    for i, j in possible:
        m[j, i] = 0.5
    for i, j in sure:
        m[j, i] = 1.0
    return m


def plot_alignment_panels(panels: dict, src_tokens, tgt_tokens, *, sure=(), possible=(), size: float = 4.6,
                          gold_panel: bool = True):
    """One heatmap per entry of ``panels`` (title -> weights [T, S]) and a gold panel; returns the figure.

    Without links (a sentence typed in, not from the corpus) pass ``gold_panel=False``."""
    import matplotlib.pyplot as plt

    from helpers.viz import plot_attention

    src, tgt = list(src_tokens), list(tgt_tokens)
    n = len(panels) + int(gold_panel)
    fig, axes = plt.subplots(1, n, figsize=(size * n, size * max(1.0, len(tgt) / len(src)) * 0.95),
                             layout="constrained")
    for ax, (title, weights) in zip(axes, panels.items()):
        plot_attention(np.asarray(weights, dtype=float), src, tgt, gold=set(sure) or None,
                       possible=set(possible) or None, ax=ax, annotate=False, title=title)
    if gold_panel:
        plot_attention(gold_matrix(len(src), len(tgt), sure, possible), src, tgt, gold=set(sure),
                       possible=set(possible), ax=axes[-1], annotate=False, title="标准对齐（gold）")
    return fig


def plot_padding_bars(weights_no_mask, weights_masked, tokens, n_real: int, *, title: str | None = None):
    """Notebook 05b: one step's weights without and with the mask as bars, the padding hatched grey."""
    import matplotlib.pyplot as plt

    xs = np.arange(len(tokens))
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.4), sharey=True, layout="constrained")
    for ax, w, name in ((axes[0], np.asarray(weights_no_mask, dtype=float), "不加掩码：填充位置也分到了权重"),
                        (axes[1], np.asarray(weights_masked, dtype=float), "加掩码：填充位置的权重恰好为 0")):
        ax.bar(xs[:n_real], w[:n_real], color="tab:orange", label="真实词")
        ax.bar(xs[n_real:], w[n_real:], color="0.8", hatch="//", edgecolor="0.35", label="<pad> 填充")
        for x in xs:
            ax.text(x, w[x] + 0.005, f"{w[x]:.2f}", ha="center", fontsize=8.5)
        ax.set_xticks(xs, list(tokens), rotation=45, ha="right", rotation_mode="anchor")
        ax.set_title(name)
    axes[0].set_ylabel("注意力权重 α（第 1 步）")
    axes[0].set_ylim(0, 1.15 * float(np.max(weights_masked)))
    axes[1].legend()
    if title:
        fig.suptitle(title)
    return fig


def plot_alpha_table(rows, labels, tokens, title: str):
    """Notebook 05a: several attention rows as one table of coloured cells (row = a label, column = a source
    word), each cell printed with its weight to two decimals; returns the figure."""
    import matplotlib.pyplot as plt

    rows = np.asarray([np.asarray(r, dtype=float) for r in rows])
    if rows.ndim != 2 or rows.shape != (len(labels), len(tokens)):
        from helpers.runtime.errors import ShapeError

        raise ShapeError(f"rows 的形状 (shape) 应为 [{len(labels)} 个标签, {len(tokens)} 个词]，实际 (got) {list(rows.shape)}。")
    fig, ax = plt.subplots(figsize=(1.8 + 1.1 * len(tokens), 0.9 + 0.55 * len(rows)), layout="constrained")
    ax.imshow(rows, cmap="Reds", vmin=0, vmax=1, aspect="auto")
    for r, row in enumerate(rows):
        for s, a in enumerate(row):
            ax.text(s, r, f"{a:.2f}", ha="center", va="center", fontsize=10, color="white" if a > 0.6 else "black")
    ax.set_xticks(range(len(tokens)), list(tokens))
    ax.set_yticks(range(len(labels)), list(labels))
    ax.set_title(title)
    return fig


def plot_translation_pairs(runs: dict, cases: list, *, size: tuple[float, float] = (5.0, 4.2)):
    """Notebook 06, exercise 4: one row per case (label, corpus pair), one heatmap per model (label -> model).

    Each panel shows the model's own translation; the gold boxes are drawn only where the translation
    equals the reference (otherwise the words do not line up). Returns (figure, lines): one line per
    panel with the output, the reference and, when they differ, the reference words it left out."""
    import matplotlib.pyplot as plt

    import helpers
    from helpers.viz import plot_attention

    fig, axes = plt.subplots(len(cases), len(runs), figsize=(size[0] * len(runs), size[1] * len(cases)),
                             layout="constrained", squeeze=False)
    lines = []
    for row, (what, pair) in zip(axes, cases):
        for ax, (label, model) in zip(row, runs.items()):
            t = helpers.translate(model, " ".join(pair.src))
            same = t.tgt_tokens == list(pair.tgt)
            missing = [w for w in pair.tgt if w not in t.tgt_tokens]
            lines.append(f"{what} | {label}: {t.text} | 参考译文 (reference): {''.join(pair.tgt)}"
                         + ("" if same else f" | 不同：漏了 {missing or '（词都在，顺序或用词不同）'}"))
            plot_attention(t.attention, t.src_tokens, t.tgt_tokens, ax=ax, title=f"{what}，{label}\n{t.text}",
                           gold=pair.sure if same else None, possible=pair.possible if same else None)
    return fig, lines
