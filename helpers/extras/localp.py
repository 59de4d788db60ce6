"""Local-p attention trained for real (notebook 05b): where its predicted window centres p_t land.

Luong et al. 2015 §3.2 let the decoder predict the centre of its attention window,
p_t = S_i · sigmoid(v_pᵀ tanh(W_p h_t)) (extra (E4) in ``helpers.attention``). Nothing tells the
predictor where the source words are: it learns from the translation loss alone. This module
measures what it learned, against the corpus's gold alignments:

* ``make_local_model`` / ``train_local_p``: a small Luong model whose attention is local-p
  (``Seq2Seq(..., local_window=D)``), trained with a budget in steps and a deliberate thread count;
* ``gold_positions(pair)``: for each target word t, the mean 1-based source position of its sure links
  (NaN for a word with none, e.g. a measure word without its noun's link);
* ``window_centres(model, pairs)``: p_t of every target word under teacher forcing;
* ``centre_errors(model, pairs)``: the mean |p_t − gold| of the model, of local-m's p_t = t and of the
  sentence middle S_i / 2 (what an untrained predictor, sigmoid ≈ 1/2, gives), over the aligned words;
* ``plot_centres``: p_t against the gold positions, one point per aligned target word.

Dimension letters: B batch, S source length, T target length, H hidden size.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from helpers.runtime.errors import HelpersError

__all__ = ["CentreErrors", "centre_errors", "gold_positions", "make_local_model", "plot_centre_points",
           "plot_centres", "train_local_p", "window_centres"]

BOS, EOS = 1, 2


def make_local_model(window: int = 2, seed: int = 0, **sizes):
    """A fresh luong-general model (score ÷ √H) whose attention is local-p with radius ``window``."""
    from helpers.train import make_model

    model = make_model("luong-general", seed=seed, local_window=window, scaled_score=True, **sizes)
    model.name = f"local-p (D = {window})"
    return model


def train_local_p(steps: int, *, window: int = 2, seed: int = 0, threads: int = 1, progress: bool = True,
                  **train_options):
    """Train ``make_local_model(window, seed)`` for ``steps`` steps on ``threads`` torch threads.

    Returns (model, history), the model in eval mode. The budget is in steps, so a busy laptop gets the
    same model, only later. Gradients are switched on while training, whatever the caller's setting.
    """
    from helpers.train import train

    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise HelpersError(f"训练步数 steps 应为正整数 (a positive int)，实际 (got) {steps!r}。例如 steps=600。")
    model = make_local_model(window, seed)
    with torch.enable_grad():  # a notebook may have switched gradients off for its inference cells
        history = train(model, steps=steps, seed=seed, threads=threads, progress=progress, patience=None,
                        **train_options)
    model.eval()
    return model, history


def gold_positions(pair) -> np.ndarray:
    """[T] the mean 1-based source position of each target word's sure links; NaN where it has none."""
    linked: dict[int, list[int]] = {}
    for s, t in pair.sure:
        linked.setdefault(t, []).append(s + 1)
    return np.array([np.mean(linked[t]) if t in linked else np.nan for t in range(len(pair.tgt))])


def _local_attention(model):
    attn = getattr(getattr(model, "decoder", None), "attention", None)
    if getattr(attn, "mode", None) != "p":
        raise HelpersError("这个模型没有 local-p 注意力 (not a local-p model)：请用 make_local_model(...) 或 "
                           "make_model('luong-general', local_window=2) 建模型。")
    if model.config.get("input_feeding"):
        raise HelpersError("window_centres 只支持不带输入馈送的模型 (input_feeding=False)。")
    return attn


@torch.no_grad()
def window_centres(model, pairs, batch_size: int = 256) -> list[np.ndarray]:
    """p_t (E4) for every target word of each pair, teacher-forced: a list of arrays [T_i]."""
    from helpers.decode import pad_sequences

    attn = _local_attention(model)
    out = []
    for start in range(0, len(pairs), batch_size):
        chunk = pairs[start:start + batch_size]
        src, src_lens = pad_sequences([model.src_vocab.encode(p.src) for p in chunk])  # [B, S], [B]
        tgt_in, _ = pad_sequences([[BOS, *model.tgt_vocab.encode(p.tgt)] for p in chunk])  # [B, T+1]
        state = model.start(src, src_lens)
        h, _ = model.decoder.rnn(model.decoder.embedding(tgt_in), state.hidden)  # [B, T+1, H]  h_t for every t
        p = attn(h, state.encoder_outputs, mask=state.src_mask).positions  # [B, T+1]
        out += [p[b, : len(pair.tgt)].numpy() for b, pair in enumerate(chunk)]
    return out


@dataclass
class CentreErrors:
    """How far window centres lie from the gold positions, over the aligned target words.

    ``*_error``: mean |p_t − gold| (in source positions); ``moved_*``: the same over the words whose gold
    position lies at least ``MOVED`` positions from t (the reordered ones); ``inside_*``: the share of
    words whose gold position lies inside the window |s − p_t| ≤ D.
    """

    local_p_error: float  # the model's predicted centres (E4)
    local_m_error: float  # p_t = t, capped at S_i (E3)
    middle_error: float  # p_t = S_i / 2 (an untrained predictor: sigmoid(≈ 0) = 1/2)
    moved_local_p_error: float
    moved_local_m_error: float
    inside_local_p: float
    inside_local_m: float
    words: int  # aligned target words counted
    moved_words: int


MOVED = 2  # a target word is "moved" when its gold position is at least this far from t


def centre_errors(model, pairs) -> CentreErrors:
    """The centres of ``model``, of local-m and of the sentence middle against the gold positions."""
    D = _local_attention(model).window
    gold, pred, steps, middle = [], [], [], []
    for pair, p in zip(pairs, window_centres(model, pairs)):
        g = gold_positions(pair)
        keep = ~np.isnan(g)
        S = len(pair.src)
        gold += list(g[keep])
        pred += list(p[keep])
        steps += list(np.minimum(np.arange(1, len(pair.tgt) + 1), S)[keep])
        middle += [S / 2] * int(keep.sum())
    if not gold:
        raise HelpersError("这些句子里没有一个带标准对齐的目标词 (no aligned target word)：请换一批句子。")
    gold, pred, steps, middle = (np.asarray(v, dtype=float) for v in (gold, pred, steps, middle))
    moved = np.abs(gold - steps) >= MOVED
    err_p, err_m = np.abs(pred - gold), np.abs(steps - gold)
    mean = lambda x: float(x.mean()) if x.size else float("nan")  # noqa: E731
    return CentreErrors(mean(err_p), mean(err_m), mean(np.abs(middle - gold)), mean(err_p[moved]),
                        mean(err_m[moved]), mean(err_p <= D), mean(err_m <= D), int(gold.size), int(moved.sum()))


def plot_centres(model, pairs, ax=None, title: str | None = None):
    """Scatter p_t against the gold position (one dot per aligned target word), with the diagonal."""
    gold, pred = [], []
    for pair, p in zip(pairs, window_centres(model, pairs)):
        g = gold_positions(pair)
        keep = ~np.isnan(g)
        gold += list(g[keep])
        pred += list(p[keep])
    return plot_centre_points(gold, pred, ax=ax, title=title)


def plot_centre_points(gold, pred, ax=None, title: str | None = None):
    """The scatter of ``plot_centres`` from stored points (gold positions, predicted p_t)."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(5.2, 5), layout="constrained")
    top = max(max(gold), max(pred)) + 0.5
    ax.plot([0.5, top], [0.5, top], color="0.5", lw=1, ls="--", label="p_t = 标准位置")
    ax.scatter(gold, pred, s=9, alpha=0.35, color="tab:blue", label="目标词")
    ax.set_xlabel("标准对齐的源位置（链接的平均位置，从 1 数）")
    ax.set_ylabel("预测的窗口中心 p_t")
    ax.set_title(title or "local-p 预测的 p_t 与标准对齐")
    ax.legend(loc="upper left")
    return ax
