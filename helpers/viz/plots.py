"""Static plots shared by the notebooks on the bottleneck (9.10 intro), the idea (9.10.2) and training.

* ``plot_seq2seq_diagram()``  the 9.9 Seq2Seq drawn as boxes: the decoder only receives the encoder's
                              last state (the information bottleneck); ``attention=True`` adds the links
                              of one decoding step to every encoder state (the idea of 9.10.2, Fig. 9-22)
* ``bleu_by_length_series()`` the BLEU-by-length numbers of a metrics record (``helpers.tools.evaluate``) as
                              buckets, one list of scores per model, and sentence counts
* ``plot_bleu_by_length()``   BLEU against source length, one line per model, the lengths beyond the
                              training data shaded (the experiment of Bahdanau et al. 2014, Fig. 2)
* ``plot_loss_curves()``      training loss per step (smoothed) and validation BLEU of several runs
* ``LiveLossCurve``           the same figure redrawn while ``helpers.train.train`` runs (its callback)
* ``plot_length_histograms()`` source-length histograms of the corpus splits
* ``plot_phenomena()``        how often each reordering phenomenon occurs, and how often it crosses links
* ``plot_attention_row()``    one row of an attention matrix as bars, the peak marked (Fig. 9-22)
* ``plot_similarity()``       cosine-similarity matrices side by side (fixed vector vs context vectors)
* ``plot_pair_attention()``   one corpus pair translated by a model: heatmap (Fig. 9-22 style), gold
                              overlay and AER in the title when the output equals the reference (07)
* ``plot_attention_gallery()`` several such heatmaps side by side, each as wide as its sentence (07)
* ``markdown_table()``        a list of rows as a Markdown table (shown with ``IPython.display.Markdown``)

Plot functions use pyplot (a notebook shows them with ``plt.show()``) and return the Figure.
"""

from __future__ import annotations

import math
import time

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import LineCollection

from helpers.corpus import PHENOMENA_ZH
from helpers.runtime.errors import HelpersError
from helpers.viz import setup_chinese_font

__all__ = [
    "PHENOMENA_ZH",
    "LiveLossCurve",
    "bleu_by_length_series",
    "bucket_label",
    "markdown_table",
    "attention_panel_size",
    "plot_attention_gallery",
    "plot_attention_row",
    "plot_bleu_by_length",
    "plot_length_histograms",
    "plot_loss_curves",
    "plot_pair_attention",
    "plot_phenomena",
    "plot_seq2seq_diagram",
    "plot_similarity",
    "smooth",
]

MODEL_COLORS = {
    "none": "tab:red",
    "rnnencdec": "tab:brown",
    "bahdanau": "tab:blue",
    "luong-dot": "tab:green",
    "luong-general": "tab:purple",
    "luong-concat": "tab:orange",
}
MODEL_LABELS = {
    "none": "none（无注意力, 9.9）",
    "rnnencdec": "rnnencdec（无注意力，每步都用 c）",
    "bahdanau": "bahdanau（加法）",
    "luong-dot": "luong-dot（乘法）",
    "luong-general": "luong-general（乘法）",
    "luong-concat": "luong-concat（加法）",  # Luong's concat score has Bahdanau's additive form
}


def _color(name: str, k: int) -> str:
    return MODEL_COLORS.get(name, f"C{k % 10}")


# --------------------------------------------------------------------------- the 9.9 model as a diagram
def _cell(ax, x, y, text, color, w=0.8, h=0.55, fontsize=9, edge="0.25", lw=1.0):
    from matplotlib.patches import FancyBboxPatch

    ax.add_patch(FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.04",
                                facecolor=color, edgecolor=edge, linewidth=lw))
    ax.text(x, y, text, ha="center", va="center", fontsize=fontsize)


def _arrow(ax, start, end, color="0.3", lw=1.0, style="-|>", ls="-", rad=0.0):
    ax.annotate("", xy=end, xytext=start, arrowprops=dict(arrowstyle=style, color=color, lw=lw,
                                                          linestyle=ls, shrinkA=2, shrinkB=2,
                                                          connectionstyle=f"arc3,rad={rad}"))


def plot_seq2seq_diagram(src_tokens=("i", "am", "a", "student", "."), tgt_tokens=("我", "是", "一", "名", "学生", "。"),
                         *, attention: bool = False, step: int = 1, ax=None, title: str | None = None):
    """Draw an encoder-decoder (Seq2Seq) as RNN boxes; returns the Figure.

    attention=False: the 9.9 model, where the decoder gets nothing but the encoder's last state h̄_S
    (drawn in red: the information bottleneck). attention=True: the same model plus the links from
    decoding step ``step`` (0-based) to every encoder state h̄_1..h̄_S, weighted through α (9.10.2).
    """
    src, tgt = list(src_tokens), list(tgt_tokens)
    if not src or not tgt:
        raise HelpersError("源句子和目标句子都至少要有一个词 (need at least one source and one target token)。")
    if attention and not 0 <= step < len(tgt):
        raise HelpersError(f"step 应在 0..{len(tgt) - 1} 之间 (step out of range)，实际为 {step}。")
    setup_chinese_font()
    S, T = len(src), len(tgt)
    gap = 1.4  # space between encoder and decoder
    enc_x = [float(i) for i in range(S)]
    dec_x = [S - 1 + gap + 1.0 + j for j in range(T)]
    if ax is None:
        fig, ax = plt.subplots(figsize=(min(1.0 * (S + T) + 2.5, 15), 3.6))
    else:
        fig = ax.figure
    y_in, y_rnn, y_out = 0.0, 1.2, 2.4
    for i, (x, word) in enumerate(zip(enc_x, src)):
        ax.text(x, y_in, word, ha="center", va="center", fontsize=10)
        _arrow(ax, (x, y_in + 0.2), (x, y_rnn - 0.3))
        _cell(ax, x, y_rnn, f"h̄{_sub(i + 1)}", "#d6e6f5")
        if i:
            _arrow(ax, (x - 0.6, y_rnn), (x - 0.4, y_rnn))
    inputs = ["<bos>"] + tgt[:-1]
    for j, (x, word) in enumerate(zip(dec_x, tgt)):
        ax.text(x, y_in, inputs[j], ha="center", va="center", fontsize=9, color="0.35")
        _arrow(ax, (x, y_in + 0.2), (x, y_rnn - 0.3))
        _cell(ax, x, y_rnn, f"h{_sub(j + 1)}", "#fde3c8")
        _arrow(ax, (x, y_rnn + 0.3), (x, y_out - 0.2))
        ax.text(x, y_out, word, ha="center", va="center", fontsize=12)
        if j:
            _arrow(ax, (x - 0.6, y_rnn), (x - 0.4, y_rnn))
    # The only channel from encoder to decoder in the 9.9 model.
    _arrow(ax, (enc_x[-1] + 0.42, y_rnn), (dec_x[0] - 0.42, y_rnn), color="tab:red", lw=2.5)
    ax.text((enc_x[-1] + dec_x[0]) / 2, y_rnn + 0.42, "h̄" + _sub(S), ha="center", color="tab:red", fontsize=10)
    if attention:
        xq = dec_x[step]
        for x in enc_x:
            _arrow(ax, (x, y_rnn + 0.3), (xq - 0.2, y_rnn + 0.3), color="tab:blue", lw=0.9, ls="--", rad=-0.22)
        ax.text((enc_x[0] + xq) / 2, -0.75, f"第 {step + 1} 步解码（输出“{tgt[step]}”）可以回看每个 h̄ₛ，权重为 α",
                ha="center", color="tab:blue", fontsize=9)
    else:
        ax.text((enc_x[0] + dec_x[-1]) / 2, -0.75,
                f"解码器只拿到编码器最后一个隐含状态 h̄{_sub(S)}（红色箭头）：整句话被压缩进一个固定长度的向量",
                ha="center", color="tab:red", fontsize=9)
    ax.text(np.mean(enc_x), y_out + 0.55, "编码器（Encoder）", ha="center", fontsize=10, color="tab:blue")
    ax.text(np.mean(dec_x), y_out + 0.55, "解码器（Decoder）", ha="center", fontsize=10, color="tab:orange")
    ax.set_xlim(-0.8, dec_x[-1] + 0.8)
    ax.set_ylim(-1.1, y_out + 0.9)
    ax.axis("off")
    if title:
        ax.set_title(title)
    return fig


def _sub(n: int) -> str:
    return str(n).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


# --------------------------------------------------------------------------- BLEU by source length
def bucket_label(bucket) -> str:
    """(lo, hi) -> "lo-hi"; a string is returned unchanged."""
    if isinstance(bucket, str):
        return bucket
    lo, hi = bucket
    return f"{lo}-{hi}"


def bleu_by_length_series(record: dict, models=None):
    """(buckets [(lo, hi)], {model: [char-BLEU per bucket]}, [sentences per bucket]) from a metrics record.

    ``record`` is what ``helpers.tools.evaluate.run_evaluation`` returns / writes to metrics.json (or a dict
    with "buckets" and "models" -> name -> "by_length" -> bucket -> {"n", "char_bleu"}).
    """
    if not isinstance(record, dict) or "buckets" not in record or "models" not in record:
        raise HelpersError("评测记录格式不对 (not a metrics record)：请传入 helpers.tools.evaluate.run_evaluation() 的结果 "
                           "或 metrics.json 的内容；没有该文件时请运行 `make evaluate`。")
    names = list(record["buckets"])
    buckets = [tuple(int(x) for x in name.split("-")) for name in names]
    chosen = list(record["models"]) if models is None else list(models)
    scores = {m: [record["models"][m]["by_length"][b]["char_bleu"] for b in names] for m in chosen
              if m in record["models"]}
    first = next(iter(record["models"].values()), None)
    counts = [first["by_length"][b]["n"] for b in names] if first else [0] * len(names)
    return buckets, scores, counts


def plot_bleu_by_length(buckets, scores: dict, *, train_max: int | None = 40, train_min: int | None = None,
                        counts=None, ylabel: str = "char-BLEU", title: str | None = None, ax=None):
    """One line per model: BLEU (y) for each source-length bucket (x), as in Bahdanau et al. 2014, Fig. 2.

    buckets: list of (lo, hi) token ranges (or labels); scores: {model name: [BLEU per bucket]} with
    None/NaN for an empty bucket; counts: optional number of sentences per bucket (shown under the
    labels). The buckets inside the training lengths (``train_min``..``train_max``; ``train_min``
    defaults to the first bucket's start) get a bracket labelled with that range above the lines;
    buckets starting above ``train_max`` (longer than any training sentence) are shaded and labelled
    as the book's "much longer than training". Returns the Figure.
    """
    buckets = list(buckets)
    if not buckets or not scores:
        raise HelpersError("需要至少一个长度区间和一个模型 (need buckets and scores)。")
    for name, values in scores.items():
        if len(values) != len(buckets):
            raise HelpersError(f"模型 {name!r} 有 {len(values)} 个分数，但有 {len(buckets)} 个长度区间 "
                               f"(one score per bucket)。")
    setup_chinese_font()
    if ax is None:
        fig, ax = plt.subplots(figsize=(8, 4.4), layout="constrained")
    else:
        fig = ax.figure
    x = np.arange(len(buckets))
    for k, (name, values) in enumerate(scores.items()):
        y = np.array([np.nan if v is None else float(v) for v in values])
        ax.plot(x, y, marker="o", lw=2.4 if name in ("none", "rnnencdec") else 1.6, color=_color(name, k),
                label=MODEL_LABELS.get(name, name), ls="--" if name in ("none", "rnnencdec") else "-")
    top = 1.02
    if train_max is not None:
        _mark_training_range(ax, buckets, train_min, train_max)
        top = 1.16
    ax.set_ylim(0, top)
    ax.set_yticks(np.linspace(0, 1, 6))
    labels = [bucket_label(b) for b in buckets]
    if counts is not None:
        labels = [f"{lab}\n({n} 句)" for lab, n in zip(labels, counts)]
    ax.set_xticks(x, labels, fontsize=9)
    ax.set_xlim(-0.5, len(buckets) - 0.5)
    ax.set_xlabel("源句子长度（英文词数）")
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", fontsize=9)
    if title:
        ax.set_title(title)
    return fig


def _mark_training_range(ax, buckets, train_min, train_max) -> None:
    """Bracket over the buckets inside the training lengths; shade and label the buckets beyond them."""
    ranged = [(i, b) for i, b in enumerate(buckets) if not isinstance(b, str)]
    inside = [i for i, b in ranged if b[1] <= train_max]
    beyond = [i for i, b in ranged if b[0] > train_max]
    lo = train_min if train_min is not None else (ranged[0][1][0] if ranged else None)
    if inside:
        a, b = inside[0] - 0.45, inside[-1] + 0.45
        ax.add_collection(LineCollection([[(a, 1.05), (a, 1.08), (b, 1.08), (b, 1.05)]], colors="0.35",
                                         linewidths=1))                      # a collection: not a model's line
        ax.text((a + b) / 2, 1.09, f"训练句子的长度 ({lo}–{train_max} 词)", ha="center", va="bottom",
                fontsize=9, color="0.25")
    if beyond:
        ax.axvspan(beyond[0] - 0.5, len(buckets) - 0.5, color="0.88", zorder=0)
        hi = max(b[1] for i, b in ranged if i in beyond)
        ax.text((beyond[0] - 0.5 + len(buckets) - 0.5) / 2, 1.09,
                f"比训练句子长得多 ({train_max + 1}–{hi} 词)", ha="center", va="bottom", fontsize=9, color="0.25")


# --------------------------------------------------------------------------- loss curves
def smooth(values, window: int = 20) -> np.ndarray:
    """Moving average over the last ``window`` values (shorter at the start); same length as ``values``."""
    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return v
    window = max(1, int(window))
    c = np.cumsum(np.insert(v, 0, 0.0))
    idx = np.arange(1, v.size + 1)
    lo = np.maximum(0, idx - window)
    return (c[idx] - c[lo]) / (idx - lo)


def _draw_losses(ax_loss, ax_bleu, histories: dict, window: int):
    for k, (name, h) in enumerate(histories.items()):
        color = _color(name, k)
        losses = list(getattr(h, "step_loss", []))
        if losses:
            steps = np.arange(1, len(losses) + 1)
            ax_loss.plot(steps, losses, color=color, alpha=0.2, lw=0.8)
            ax_loss.plot(steps, smooth(losses, window), color=color, lw=1.8, label=MODEL_LABELS.get(name, name))
        if getattr(h, "val_bleu", None):
            ax_bleu.plot(h.val_step, h.val_bleu, marker="o", color=color, lw=1.6, label=MODEL_LABELS.get(name, name))
    ax_loss.set_xlabel("训练步数 (step)")
    ax_loss.set_ylabel("交叉熵损失 (loss)")
    ax_loss.set_title("训练损失（细线：每步；粗线：滑动平均）")
    ax_loss.grid(alpha=0.3)
    ax_bleu.set_xlabel("训练步数 (step)")
    ax_bleu.set_ylabel("验证集 char-BLEU")
    ax_bleu.set_ylim(0, 1.02)
    ax_bleu.set_title("验证集 BLEU")
    ax_bleu.grid(alpha=0.3)
    if histories:
        ax_loss.legend(fontsize=9, loc="upper right")


def plot_loss_curves(histories: dict, window: int = 20):
    """Training loss per step and validation BLEU of several runs ({name: History}); returns the Figure."""
    setup_chinese_font()
    fig, (ax_loss, ax_bleu) = plt.subplots(1, 2, figsize=(11, 3.8), layout="constrained")
    _draw_losses(ax_loss, ax_bleu, histories, window)
    return fig


class LiveLossCurve:
    """A loss curve that redraws while training runs; pass ``curve.callback(name)`` to ``train``.

    In Jupyter the picture is a display with an id, updated in place (so the saved notebook keeps the
    last picture as a plain ``image/png``); elsewhere nothing is shown and ``figure()`` draws it.
    Redraws at most every ``min_interval`` seconds (drawing costs time the training would lose).
    """

    def __init__(self, window: int = 20, min_interval: float = 1.0, show: bool = True):
        self.histories: dict = {}
        self.window = window
        self.min_interval = min_interval
        self._last: float | None = None  # None: the first update always draws
        self._handle = None
        self._show = show
        self.redraws = 0

    def callback(self, name: str):
        def update(history):
            self.histories[name] = history
            now = time.perf_counter()
            if self._last is None or now - self._last >= self.min_interval:
                self.redraw()

        return update

    def figure(self):
        """A fresh pyplot-free Figure of the current state."""
        from helpers.widgets.base import new_figure

        fig = new_figure(11, 3.8)
        ax_loss, ax_bleu = fig.subplots(1, 2)
        _draw_losses(ax_loss, ax_bleu, self.histories, self.window)
        return fig

    def redraw(self):
        """Render now (and update the notebook display, if any)."""
        self._last = time.perf_counter()
        self.redraws += 1
        if not self._show:
            return
        try:
            from IPython import get_ipython
            from IPython.display import Image, display
        except ImportError:  # pragma: no cover - IPython ships with the notebooks' requirements
            return
        if get_ipython() is None:
            return
        from helpers.widgets.base import figure_to_png

        image = Image(data=figure_to_png(self.figure(), dpi=80))
        if self._handle is None:
            self._handle = display(image, display_id=True)
        else:
            self._handle.update(image)


# --------------------------------------------------------------------------- corpus figures
def plot_length_histograms(stats: dict, splits=("train", "valid", "test", "long")):
    """Source-length histograms (English tokens) of the splits from ``corpus_stats()``; returns the Figure."""
    setup_chinese_font()
    fig, ax = plt.subplots(figsize=(9, 3.6), layout="constrained")
    hists = stats["src_length_hist"]
    for k, split in enumerate(splits):
        h = hists[split]
        total = sum(h.values())
        xs = sorted(h)
        ax.plot(xs, [h[x] / total for x in xs], marker=".", lw=1.5, color=f"C{k}",
                label=f"{split}（{total} 句）")
    train_max = max(hists["train"])
    ax.axvline(train_max + 0.5, color="0.4", ls=":", lw=1.2)
    ax.text(train_max + 1, ax.get_ylim()[1] * 0.9, f"训练集最长 {train_max} 词", fontsize=9, color="0.3")
    ax.set_xlabel("源句子长度（英文词数，含标点）")
    ax.set_ylabel("句子占比")
    ax.set_title("各划分的源句子长度分布")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9)
    return fig




def plot_phenomena(stats: dict, split: str = "train"):
    """Bars: pairs with each phenomenon, and how many of them have crossing links; returns the Figure."""
    setup_chinese_font()
    counts = stats["phenomena"][split]
    crossing = stats["crossing_by_phenomenon"][split]
    names = sorted(counts, key=counts.get)
    fig, ax = plt.subplots(figsize=(8, 0.3 * len(names) + 1.3), layout="constrained")
    y = np.arange(len(names))
    ax.barh(y, [counts[n] for n in names], color="0.8", label="含该现象的句对")
    ax.barh(y, [crossing.get(n, 0) for n in names], color="tab:blue", label="其中对齐有交叉的")
    ax.set_yticks(y, [f"{PHENOMENA_ZH.get(n, n)} ({n})" for n in names], fontsize=9)
    ax.set_xlabel(f"句对数（{split} 划分，共 {stats['sizes'][split]} 句）")
    ax.set_title(f"语序现象（对齐交叉的句对占 {stats['crossing_share'][split]:.1%}）")
    ax.legend(fontsize=9, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    return fig


# --------------------------------------------------------------------------- attention rows / similarity
def plot_attention_row(weights, src_tokens, target_word: str = "", *, ax=None, title: str | None = None):
    """One decoding step's attention weights over the source tokens as bars; the largest in red."""
    w = np.asarray(weights, dtype=float).ravel()
    src = list(src_tokens)
    w = w[: len(src)]
    if w.size != len(src):
        raise HelpersError(f"权重个数 {w.size} 少于源词数 {len(src)} (one weight per source token)。")
    setup_chinese_font()
    if ax is None:
        fig, ax = plt.subplots(figsize=(max(4.5, 0.8 * len(src) + 1.5), 3.0), layout="constrained")
    else:
        fig = ax.figure
    peak = int(np.argmax(w))
    colors = ["tab:red" if i == peak else "tab:blue" for i in range(len(src))]
    ax.bar(range(len(src)), w, color=colors)
    for i, v in enumerate(w):
        ax.text(i, v + 0.02, f"{v:.2f}", ha="center", fontsize=9)
    ax.set_xticks(range(len(src)), src)
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("注意力权重 α")
    ax.set_title(title or f"输出“{target_word}”时，对各个源词的注意力权重")
    return fig


def plot_similarity(matrices: dict, labels):
    """Cosine-similarity matrices side by side ({title: [T, T] matrix}), values written in the cells."""
    setup_chinese_font()
    n = len(matrices)
    size = max(3.2, 0.55 * len(labels) + 1.6)
    fig, axes = plt.subplots(1, n, figsize=(size * n + 0.8, size), layout="constrained", squeeze=False)
    image = None
    for ax, (title, m) in zip(axes[0], matrices.items()):
        m = np.asarray(m, dtype=float)
        image = ax.imshow(m, vmin=-1, vmax=1, cmap="RdBu_r")
        ax.set_xticks(range(len(labels)), labels)
        ax.set_yticks(range(len(labels)), labels)
        for a in range(m.shape[0]):
            for b in range(m.shape[1]):
                ax.text(b, a, f"{m[a, b]:.2f}", ha="center", va="center", fontsize=8,
                        color="white" if abs(m[a, b]) > 0.6 else "black")
        ax.set_title(title, fontsize=10)
    fig.colorbar(image, ax=list(axes[0]), shrink=0.8, label="余弦相似度")
    return fig


# --------------------------------------------------------------------------- heatmaps of corpus pairs (07)
def attention_panel_size(n_src: int, n_tgt: int) -> tuple[float, float]:
    """(width, height) in inches of a heatmap with ``n_src`` columns and ``n_tgt`` rows.

    1.2 x 1.3 inches for the labels plus 0.42 x 0.36 per cell, so every cell has the same shape and
    a short sentence is not stretched.
    """
    return 1.2 + 0.42 * n_src, 1.3 + 0.36 * n_tgt


def plot_pair_attention(model, pair, *, ax=None, label: str = "", name: str | None = None):
    """Translate ``pair.src`` with ``model`` and draw its attention on ``ax``; returns (translation, AER or None).

    When the output equals the reference ``pair.tgt``, the gold links are drawn and the title gives
    the sentence's AER; otherwise the rows do not match the gold links, so neither is shown and the
    title says so. ``label`` is a first title line, ``name`` the model name in the title. Cells carry
    their weights when both sides have at most 9 tokens.
    """
    from helpers.decode import translate
    from helpers.metrics import aer
    from helpers.viz import plot_attention
    from helpers.widgets.explorer import sentence_text

    name = name or getattr(model, "name", None) or "model"
    t = translate(model, sentence_text(pair.src))
    same = t.tgt_tokens == list(pair.tgt)
    if same:
        score = aer(t.attention, pair.sure, pair.possible, n_src=len(t.src_tokens), n_tgt=len(t.tgt_tokens))
        head = f"{name}   AER = {score:.2f}"
    else:
        score, head = None, f"{name}   译文≠参考，不计 AER"
    w, h = attention_panel_size(len(t.src_tokens), len(t.tgt_tokens))
    if ax is None:
        _, ax = plt.subplots(figsize=(w, h), layout="constrained")
    plot_attention(t.attention, t.src_tokens, t.tgt_tokens, ax=ax, title=f"{label}\n{head}" if label else head,
                   gold=pair.sure if same else None, possible=pair.possible if same else None,
                   annotate=len(t.src_tokens) <= 9 and len(t.tgt_tokens) <= 9)
    ax.title.set_fontsize(10)
    ax.set_box_aspect((h - 1.3) / (w - 1.2))  # every cell the same shape
    return t, score


def plot_attention_gallery(model, pairs, labels, *, name: str | None = None):
    """``plot_pair_attention`` for several pairs in one row, each panel as wide as its sentence is long.

    Returns (Figure, [(translation, AER or None) per pair]).
    """
    pairs, labels = list(pairs), list(labels)
    if not pairs or len(labels) != len(pairs):
        raise HelpersError(f"需要至少一个句对，且每个句对一个标题 (one label per pair)：{len(pairs)} 个句对，"
                           f"{len(labels)} 个标题。")
    setup_chinese_font()
    widths = [attention_panel_size(len(p.src), len(p.tgt))[0] for p in pairs]
    height = max(attention_panel_size(len(p.src), len(p.tgt))[1] for p in pairs) + 0.6
    fig, axes = plt.subplots(1, len(pairs), figsize=(sum(widths), height), width_ratios=widths,
                             layout="constrained")
    results = [plot_pair_attention(model, pair, ax=ax, label=label, name=name)
               for ax, pair, label in zip(np.atleast_1d(axes), pairs, labels)]
    return fig, results


# --------------------------------------------------------------------------- tables
def markdown_table(rows, headers, digits: int = 3) -> str:
    """Rows (lists) under ``headers`` as a Markdown table; floats rounded to ``digits``, None -> "—"."""
    def cell(v):
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return "—"
        if isinstance(v, float):
            return f"{v:.{digits}f}"
        return str(v).replace("|", "\\|")

    lines = ["| " + " | ".join(map(str, headers)) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)
