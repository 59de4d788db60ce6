"""One decoding step of Fig. 9-25, traced and shown live (notebook 05, section 9.10.3 part 2).

At decoding step t a Luong decoder (Luong et al. 2015) first computes its state h_t, then

* Eq. (9-40)  scores     score(h_t, h̄_s) for every source position s (dot / general / concat; the
              shipped luong-dot and luong-general divide it by √H, extra (E1), and the panel says so)
* Eq. (9-37)  weights    α_t = softmax(scores) over the real (unpadded) source positions
* Eq. (9-38)  context    c_t = Σ_s α_ts h̄_s
* Eq. (9-39)  attention vector  h̃_t = tanh(W_c [c_t; h_t]);  output distribution softmax(W_s h̃_t)

This module offers three things:

* ``trace_decoding(model, sentence)`` -> ``DecodingTrace``: greedy decoding through the model's own
  step API (``model.start`` / ``model.step``), keeping h_t, the scores, α, c_t, h̃_t and the top-k
  output tokens of every step (``StepTrace``). The tokens and α are exactly those of ``translate``.
* ``plot_attention_step_diagram(...)``: Fig. 9-25 drawn as a box-and-arrow diagram (static).
* ``StepThrough``: the widget. Controls ``.score`` (Dropdown: the pretrained luong-dot / luong-general
  / luong-concat models, labelled by their score function), ``.step`` (IntSlider, t = 1..T),
  ``.sentence`` (Text); readouts ``.image`` (PNG), ``.readout`` (HTML), ``.message`` (HTML notes and
  errors); ``.trace`` is the current ``StepTrace``. Its display bundle carries a static ``image/png``.

Dimension letters: S source length, H hidden size, V target vocabulary size.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np
import torch

from helpers.runtime.errors import HelpersError
from helpers.widgets.base import PngBox, canvas_to_png, new_figure

__all__ = [
    "MAX_STEP_TOKENS",
    "SCORE_LABELS",
    "DecodingTrace",
    "StepThrough",
    "StepTrace",
    "plot_attention_step_diagram",
    "score_panel_title",
    "trace_decoding",
]

MAX_STEP_TOKENS = 30  # longest source sentence the step-through accepts (bars stay readable)
SCORE_DROPDOWN_WIDTH = "600px"  # fits the longest SCORE_LABELS entry at JupyterLab's 13 px (tests/test_widgets_layout.py)
SCORE_LABELS = {  # the shipped luong-dot / luong-general divide by sqrt(H) (see helpers.tools.pretrain)
    "luong-dot": "缩放 dot：h_tᵀ h̄_s / √H（额外式 E1）",
    "luong-general": "缩放 general：h_tᵀ W_a h̄_s / √H（额外式 E1，带输入馈送 input feeding）",
    "luong-concat": "concat：v_aᵀ tanh(W_a [h_t; h̄_s])（式 9-40）",
}
BOS, EOS = 1, 2


def score_panel_title(config: dict) -> str:
    """The score panel's title: Eq. (9-40), or, for a score divided by √H, the extra (E1) it is."""
    if config.get("scaled_score") and config.get("variant") in ("luong-dot", "luong-general"):
        return "打分（式 (9-40) ÷ √H，额外式 (E1)）"
    return "打分（式 (9-40)）"


# --------------------------------------------------------------------------- tracing
@dataclass
class StepTrace:
    """Everything of decoding step t (1-based) for one sentence; vectors are numpy."""

    t: int
    prev_token: str  # y_{t-1}, the token fed in (<bos> at t = 1)
    h_t: np.ndarray  # [H]  decoder state (the Query)
    scores: np.ndarray  # [S]  Eq. (9-40)
    alpha: np.ndarray  # [S]   Eq. (9-37)
    context: np.ndarray  # [H] Eq. (9-38)
    h_tilde: np.ndarray  # [H] Eq. (9-39)
    top_tokens: list[str]  # the k most probable output tokens of softmax(W_s h̃_t), best first
    top_probs: np.ndarray  # [k]

    @property
    def token(self) -> str:
        """The greedy output token of this step (the arg-max)."""
        return self.top_tokens[0]


@dataclass
class DecodingTrace:
    """Greedy decoding of one sentence, step by step (the last step is the one that emits <eos>)."""

    variant: str
    src_tokens: list[str]
    steps: list[StepTrace]
    src_surfaces: list[str] | None = None  # the source words as typed (what a copy writes); None: src_tokens
    note: str = ""  # a remark on the input (unknown words read as <unk>, truncation), as ``Translation.note``

    @property
    def tgt_tokens(self) -> list[str]:
        return [s.token for s in self.steps if s.token != "<eos>"]

    @property
    def copied(self) -> list:
        """``CopiedWord``s: each <unk> output replaced by the source word of largest α at its step."""
        from helpers.translation.copying import copy_unknown

        tokens = self.tgt_tokens
        if not tokens:
            return []
        alpha = np.stack([s.alpha for s in self.steps[: len(tokens)]])  # [T, S]
        return copy_unknown(tokens, alpha, self.src_surfaces or self.src_tokens)[1]

    @property
    def text(self) -> str:
        """The translation as ``translate`` writes it (copied words in place of <unk>)."""
        from helpers.translation.copying import copy_unknown, join_chinese

        tokens = self.tgt_tokens
        alpha = np.stack([s.alpha for s in self.steps[: len(tokens)]]) if tokens else None
        return join_chinese(copy_unknown(tokens, alpha, self.src_surfaces or self.src_tokens)[0])


def _check_luong(model) -> None:
    from helpers.decoders import LuongDecoder

    if not isinstance(getattr(model, "decoder", None), LuongDecoder):
        variant = getattr(model, "variant", type(model).__name__)
        raise HelpersError(
            f"逐步演示只适用于 Luong 模型 (needs a Luong model)，实际 (got) {variant!r}。"
            "请用 load_pretrained('luong-dot' / 'luong-general' / 'luong-concat')。"
        )
    if getattr(model, "src_vocab", None) is None or getattr(model, "tgt_vocab", None) is None:
        raise HelpersError("这个模型没有词表 (model has no vocabularies)：请用 helpers.load_pretrained(...) 得到的模型。")


def _source_tokens(sentence, src_vocab, max_tokens: int):
    from helpers.corpus import tokenize_en
    from helpers.translation.source import read_source

    if isinstance(sentence, str):
        n = len(tokenize_en(sentence))
        if n > max_tokens:
            raise HelpersError(
                f"句子太长 (sentence too long)：{n} 个词。逐步演示最多接受 {max_tokens} 个词，"
                "请缩短句子，例如 'i am a student .'。"
            )
    return read_source(sentence, src_vocab, max_tokens)  # unknown words are <unk>, the final mark added


@torch.no_grad()
def trace_decoding(model, sentence, top_k: int = 5, max_src_tokens: int = MAX_STEP_TOKENS) -> DecodingTrace:
    """Greedy-decode ``sentence`` with a Luong ``model`` and keep every quantity of Fig. 9-25 per step.

    Uses the same ``model.start`` / ``model.step`` calls as ``helpers.decode.greedy_decode`` (batch 1),
    so ``steps[t-1].alpha`` equals row t-1 of ``translate(model, sentence).attention``. Bad input
    (not a string, empty, no English word, longer than ``max_src_tokens``) raises ``HelpersError``; an
    unknown word is read as <unk> and ``.copied`` says which source word each <unk> output copies.
    """
    from helpers.attention import masked_softmax
    from helpers.decode import default_max_len
    from helpers.decoders import top_layer

    _check_luong(model)
    source = _source_tokens(sentence, model.src_vocab, max_src_tokens)
    src_tokens, ids = source.tokens, source.ids
    device = next(model.parameters()).device
    src = torch.tensor([ids], dtype=torch.long, device=device)  # [1, S]
    lens = torch.tensor([len(ids)], dtype=torch.long, device=device)  # [1]
    itos = model.tgt_vocab.itos
    was_training = model.training
    model.eval()
    try:
        state = model.start(src, lens)
        prev = torch.tensor([BOS], dtype=torch.long, device=device)  # [1]
        steps: list[StepTrace] = []
        for t in range(1, default_max_len(len(ids)) + 1):
            logits, weights, new_state = model.step(prev, state)  # [1, V], [1, S]
            h_t = top_layer(new_state.hidden)  # [1, H]
            scores = model.decoder.attention.score(h_t[:, None, :], state.encoder_outputs)[:, 0]  # [1, S]
            alpha = masked_softmax(scores, state.src_mask)  # [1, S]  (equals ``weights``)
            context = (alpha[:, :, None] * state.encoder_outputs).sum(1)  # [1, H]
            probs = torch.softmax(logits.float(), dim=-1)[0]  # [V]
            top_p, top_i = probs.topk(min(top_k, probs.numel()))
            steps.append(StepTrace(
                t=t, prev_token=itos[int(prev[0])],
                h_t=h_t[0].cpu().numpy(), scores=scores[0].cpu().numpy(), alpha=weights[0].cpu().numpy(),
                context=context[0].cpu().numpy(), h_tilde=new_state.attn_vector[0].cpu().numpy(),
                top_tokens=[itos[i] for i in top_i.tolist()], top_probs=top_p.cpu().numpy(),
            ))
            best = logits.argmax(dim=-1)  # [1]
            if int(best[0]) == EOS:
                break
            prev, state = best, new_state
    finally:
        model.train(was_training)
    return DecodingTrace(getattr(model, "variant", "?"), src_tokens, steps, list(source.surfaces), source.note)


# --------------------------------------------------------------------------- Fig. 9-25, static
# Matplotlib's mathtext cannot fall back to the Chinese font, so a label never mixes Chinese and
# $math$: each is its own text object (``_label``).
def _box(ax, x, y, text, color, width, height, fontsize=12):
    from matplotlib.patches import FancyBboxPatch

    ax.add_patch(FancyBboxPatch((x - width / 2, y - height / 2), width, height,
                                boxstyle="round,pad=0.03", fc=color, ec="0.3", lw=1))
    ax.text(x, y, text, ha="center", va="center", fontsize=fontsize)


def _label(ax, x, y, chinese, math="", color="black", ha="left", gap=0.36, fontsize=10.5):
    """Chinese text on one line and (optionally) a $math$ line under it."""
    ax.text(x, y, chinese, ha=ha, va="center", fontsize=fontsize, color=color)
    if math:
        ax.text(x, y - gap, math, ha=ha, va="center", fontsize=fontsize + 0.5, color=color)


def _arrow(ax, start, end, color="0.3", lw=1.1, rad=0.0, ls="-"):
    ax.annotate("", end, start, arrowprops={"arrowstyle": "->", "color": color, "lw": lw, "ls": ls,
                                            "connectionstyle": f"arc3,rad={rad}", "shrinkA": 0, "shrinkB": 0})


def plot_attention_step_diagram(src_tokens=("i", "am", "a", "student", "."), alpha=None,
                                prev_token: str = "<bos>", output_token: str = "是"):
    """Fig. 9-25 as a diagram: h̄_1..h̄_S, h_t, scores (9-40), α (9-37), c_t (9-38), h̃_t (9-39), output.

    ``alpha`` (length S) sets the bar heights and the widths of the arrows into c_t (default: a peak
    on the second token, as when the decoder produces "是" for "i am a student ."). Returns the Figure.
    """
    import matplotlib.pyplot as plt

    from helpers.viz import setup_chinese_font

    setup_chinese_font()
    src = [str(t) for t in src_tokens]
    S = len(src)
    if S == 0 or S > 12:
        raise HelpersError(f"图 9-25 示意图需要 1..12 个源词 (1..12 source tokens)，实际 (got) {S} 个。")
    if alpha is None:
        alpha = np.full(S, 0.3 / max(S - 1, 1))
        alpha[min(1, S - 1)] = 0.7 if S > 1 else 1.0
    alpha = np.asarray(alpha, dtype=float)
    if alpha.shape != (S,):
        raise HelpersError(f"alpha 的长度应等于源词数 {S} (one weight per source token)，实际形状 {alpha.shape}。")
    fig, ax = plt.subplots(figsize=(13, 7.4), layout="constrained")
    xs = 0.9 + np.arange(S) * (5.6 / max(S - 1, 1)) if S > 1 else np.array([3.5])
    x_dec, x_next = 10.2, 12.9
    # encoder states h̄_s (Keys = Values) under their tokens
    for s, (x, tok) in enumerate(zip(xs, src)):
        _box(ax, x, 1.0, f"$\\bar{{h}}_{{{s + 1}}}$", "#dbe9f6", 0.8, 0.62)
        ax.text(x, 0.3, tok, ha="center", va="center", fontsize=11)
    ax.text(xs.mean(), -0.3, "编码器的隐含状态（Keys = Values）", ha="center", fontsize=10.5, color="tab:blue")
    # decoder state h_t (the Query) and the next step
    _box(ax, x_dec, 1.0, "$h_t$", "#fde9c8", 0.9, 0.62)
    ax.text(x_dec, 0.3, f"输入 yₜ₋₁ = “{prev_token}”", ha="center", va="center", fontsize=10.5)
    ax.text(x_dec, -0.3, "解码器第 t 步（Query）", ha="center", fontsize=10.5, color="tab:orange")
    _box(ax, x_next, 1.0, "$h_{t+1}$", "#f3f3f3", 0.9, 0.62)
    ax.text(x_next, -0.3, "下一步", ha="center", fontsize=10.5, color="0.4")
    _arrow(ax, (x_dec + 0.47, 1.0), (x_next - 0.47, 1.0), color="0.5")
    # scores (9-40) and ① weights (9-37)
    y_score, y_alpha = 2.45, 3.25
    for x in xs:
        _arrow(ax, (x, 1.33), (x, y_score - 0.2), color="0.55", lw=0.9)
        ax.add_patch(plt.Circle((x, y_score), 0.18, fc="white", ec="0.3", zorder=2))
    ax.plot([xs[0], x_dec], [y_score, y_score], color="tab:orange", lw=1.3, zorder=1)  # h_t meets every h̄_s
    _label(ax, xs[-1] + 0.75, y_score + 0.62, "打分函数 式 (9-40)", "$\\mathrm{score}(h_t, \\bar{h}_s)$")
    ax.bar(xs, alpha * 1.5, bottom=y_alpha, width=0.5, color="tab:red", alpha=0.85)
    for x, a in zip(xs, alpha):
        ax.text(x, y_alpha + a * 1.5 + 0.1, f"{a:.2f}", ha="center", fontsize=9.5)
    _label(ax, xs[-1] + 0.75, y_alpha + 0.75, "① 注意力权重 式 (9-37)",
           "$\\alpha_{ts} = \\mathrm{softmax}_s\\,\\mathrm{score}(h_t, \\bar{h}_s)$")
    # ② context vector (9-38)
    c_xy = (xs.mean(), 6.3)
    for x, a in zip(xs, alpha):
        _arrow(ax, (x, y_alpha + a * 1.5 + 0.35), (c_xy[0], c_xy[1] - 0.33), color="tab:red", lw=0.4 + 3.0 * a)
    _box(ax, *c_xy, "$c_t$", "#e3f1df", 0.9, 0.62)
    _label(ax, c_xy[0] - 0.75, c_xy[1] + 0.2, "② 上下文向量 式 (9-38)",
           "$c_t = \\sum_s \\alpha_{ts}\\,\\bar{h}_s$", ha="right", gap=0.42)
    # ③ attention vector (9-39), the output distribution
    ht_xy = (x_dec, 6.3)
    _box(ax, *ht_xy, "$\\tilde{h}_t$", "#eadcf3", 0.9, 0.62)
    _arrow(ax, (c_xy[0] + 0.47, c_xy[1]), (ht_xy[0] - 0.47, ht_xy[1]), color="tab:green", lw=1.5)
    _arrow(ax, (x_dec, 1.33), (x_dec, ht_xy[1] - 0.33), color="tab:orange", lw=1.5)
    _label(ax, (c_xy[0] + ht_xy[0]) / 2, c_xy[1] + 0.72, "③ 注意力向量 式 (9-39)",
           "$\\tilde{h}_t = \\tanh(W_c\\,[c_t; h_t])$", ha="center", gap=0.4)
    out_xy = (x_dec, 7.75)
    _box(ax, *out_xy, f"输出 “{output_token}”", "#f3dcea", 1.6, 0.56, 11)
    _arrow(ax, (x_dec, ht_xy[1] + 0.33), (x_dec, out_xy[1] - 0.28), color="0.3", lw=1.2)
    ax.text(x_dec + 0.15, (ht_xy[1] + out_xy[1]) / 2, "$\\mathrm{softmax}(W_s\\,\\tilde{h}_t)$",
            va="center", fontsize=11)
    # ④ input feeding
    _arrow(ax, (ht_xy[0] + 0.47, ht_xy[1] - 0.1), (x_next, 1.33), color="tab:purple", lw=1.4, rad=-0.3, ls="--")
    _label(ax, x_next + 0.35, 4.0, "④ 输入馈送\n(input feeding)：\n与下一个词一起\n送入下一步",
           color="tab:purple")
    ax.set_title("图 9-25：第 t 步解码时的注意力计算（Query = 解码器状态，Keys = Values = 编码器状态）",
                 fontsize=13)
    ax.set_xlim(-0.4, 14.9)
    ax.set_ylim(-0.6, 8.3)
    ax.axis("off")
    return fig


# --------------------------------------------------------------------------- the widget
_BAR, _PEAK = "tab:orange", "tab:red"
_DPI = 90  # PNG resolution of the widget: 945 x 576 pixels
_TITLE_TOP = 0.955  # the axes stay below this height (figure fraction); the per-step title sits above


class StepThrough(PngBox):
    """One decoding step of Fig. 9-25, live: h_t, scores, α, c_t, h̃_t and the top-5 output tokens.

    ``models`` (optional) maps a Luong variant name to a model (e.g. one trained in the session);
    by default the pretrained luong-dot / luong-general / luong-concat models are loaded on first use.
    Bad input never raises: it shows a message in ``.message`` and keeps the last good picture.
    """

    def __init__(self, sentence: str = "i am a student .", score: str = "luong-general", step: int = 1,
                 models: dict | None = None):
        self._models = dict(models) if models else {}
        names = list(self._models) if self._models else list(SCORE_LABELS)
        for name in names:
            if name not in SCORE_LABELS:
                raise HelpersError(f"未知的 Luong 模型 (unknown Luong variant) {name!r}：请从 {list(SCORE_LABELS)} 中选择。")
        if score not in names:
            raise HelpersError(f"score 应为 {names} 之一 (one of)，实际 (got) {score!r}。")
        if not isinstance(sentence, str):
            raise HelpersError(f"sentence 应为英文句子字符串 (a str)，实际 (got) {type(sentence).__name__}。"
                               "例如 StepThrough('i am a student .')。")
        step = _first_step(step)
        self._cache: dict = {}
        self._busy = False
        self._trace: DecodingTrace | None = None
        self.trace: StepTrace | None = None
        self.sentence = widgets.Text(value=sentence, description="英文句子", continuous_update=False,
                                     placeholder="例如：i am a student .", style={"description_width": "initial"},
                                     layout=widgets.Layout(width="360px"))
        # ipywidgets' default 300 px cut the longest label ("缩放 general … input feeding") mid-formula
        self.score = widgets.Dropdown(options=[(SCORE_LABELS[n], n) for n in names], value=score,
                                      description="打分函数", style={"description_width": "initial"},
                                      layout=widgets.Layout(width=SCORE_DROPDOWN_WIDTH, max_width="100%"))
        self.step = widgets.IntSlider(value=1, min=1, max=1, description="解码步 t", continuous_update=True,
                                      style={"description_width": "initial"})
        self.image = widgets.Image(format="png")
        self.readout = widgets.HTML()
        self.message = widgets.HTML()
        self._fig = new_figure(10.5, 6.4)
        self._fig.set_dpi(_DPI)  # the canvas is drawn at the PNG's resolution (blitting, see _draw)
        self._background = None  # the canvas without the per-step artists, for the current trace
        self._background_of = None  # the DecodingTrace that background belongs to
        grid = self._fig.add_gridspec(4, 3, height_ratios=[3.2, 0.55, 0.55, 0.55], width_ratios=[1, 1, 0.8])
        self._ax_score = self._fig.add_subplot(grid[0, 0])
        self._ax_alpha = self._fig.add_subplot(grid[0, 1])
        self._ax_top = self._fig.add_subplot(grid[0, 2])
        self._ax_strips = [self._fig.add_subplot(grid[r, :]) for r in (1, 2, 3)]
        self._shape = None  # (S, H) of the current artists
        self._tokens: list[str] = []
        self._top_bars = None
        self._relayout = True
        self.sentence.observe(self._on_source, names="value")
        self.score.observe(self._on_source, names="value")
        self.step.observe(self._on_step, names="value")
        controls = widgets.HBox([self.sentence, self.score, self.step])
        super().__init__([controls, self.image, self.readout, self.message])
        self._on_source()
        if self._trace is not None:
            self.step.value = min(step, self.step.max)

    # ----------------------------------------------------------------- data
    def _model(self, name: str):
        if name not in self._models:
            from helpers.checkpoint import load_pretrained

            self._models[name] = load_pretrained(name)
        return self._models[name]

    def _load_trace(self) -> DecodingTrace:
        from helpers.corpus import tokenize_en

        name, text = self.score.value, self.sentence.value
        key = (name, tuple(tokenize_en(text)) if isinstance(text, str) and len(text) < 2000 else text)
        if key not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key] = trace_decoding(self._model(name), text)
        return self._cache[key]

    def _on_source(self, change=None):
        try:
            trace = self._load_trace()
        except HelpersError as err:
            self._error(str(err))
            return
        except Exception as err:  # noqa: BLE001 - the widget must keep working
            self._error(f"出错了 (unexpected error) {type(err).__name__}: {err}")
            return
        self._trace = trace
        self._busy = True
        try:
            T = len(trace.steps)
            if self.step.value > T:
                self.step.value = T
            self.step.max = T
        finally:
            self._busy = False
        self.message.value = html.escape(
            f"译文 (greedy)：{trace.text}　共 {T} 步（最后一步输出 <eos>）。拖动“解码步 t”逐步查看。"
            + "".join(f"　第 {c.tgt_index + 1} 步输出 <unk>，按注意力复制了源词 “{c.word}” "
                      f"(copied from source position {c.src_index + 1})。" for c in trace.copied)
            + (f"　{trace.note}" if trace.note else "")
        )
        self._draw()

    def _on_step(self, change=None):
        if self._busy or self._trace is None:
            return
        T = len(self._trace.steps)
        if not 1 <= self.step.value <= T:  # the slider's range was widened by code
            wanted = self.step.value
            self._busy = True
            try:
                self.step.value = min(max(wanted, 1), T)
            finally:
                self._busy = False
            self._draw()
            self.message.value = html.escape(f"没有第 t = {wanted} 步 (no such step)：这句话的译文共 {T} 步，"
                                             f"t 从 1 到 {T}；已显示第 t = {self.step.value} 步。")
            return
        self._draw()

    def _error(self, text: str) -> None:
        self.message.value = (f"<span style='color:#b00'>{html.escape(text)}</span>"
                              "<br><i>图片未更新，仍显示上一次的结果 (picture not updated)。</i>")

    # ----------------------------------------------------------------- drawing
    def _layout(self, S: int, H: int) -> None:
        """(Re)build the bars when the sentence length changes; the strips when H changes."""
        xs = np.arange(S)
        for ax in (self._ax_score, self._ax_alpha):
            ax.cla()
        self._score_bars = self._ax_score.bar(xs, np.zeros(S), color=_BAR)
        self._alpha_bars = self._ax_alpha.bar(xs, np.zeros(S), color=_BAR)
        self._alpha_text = [self._ax_alpha.text(x, 0, "", ha="center", fontsize=8) for x in xs] if S <= 14 else []
        self._ax_score.axhline(0, color="0.4", lw=0.8)
        self._ax_alpha.set_ylim(0, 1.12)
        self._ax_score.set_ylabel("$\\mathrm{score}(h_t, \\bar{h}_s)$")
        self._ax_alpha.set_title("注意力权重（式 (9-37)）", fontsize=10.5)
        self._ax_alpha.set_ylabel("$\\alpha_{ts}$")
        small = 8 if S > 12 else 9.5
        tilt = sum(len(tok) + 1 for tok in self._trace.src_tokens) > 24  # labels would touch
        for ax in (self._ax_score, self._ax_alpha):
            ax.set_xticks(xs, self._trace.src_tokens, rotation=50 if tilt else 0, fontsize=small,
                          ha="right" if tilt else "center", rotation_mode="anchor")
        if self._shape is None or self._shape[1] != H:
            self._strips = []
            names = ["$h_t$", "$c_t$", "$\\tilde{h}_t$"]
            notes = ["查询 (Query)", "上下文向量 (9-38)", "注意力向量 (9-39)"]
            for ax, name, note in zip(self._ax_strips, names, notes):
                ax.cla()
                self._strips.append(ax.imshow(np.zeros((1, H)), aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1))
                ax.set_yticks([0], [name], fontsize=11)
                ax.set_xticks([])
                ax.text(1.005, 0.5, note, transform=ax.transAxes, va="center", fontsize=9.5)
            self._ax_strips[-1].set_xlabel(f"隐含维度 1..{H}（颜色：-1 蓝，0 白，+1 红）", fontsize=9)
        if self._top_bars is None:
            ax = self._ax_top
            ys = np.arange(5)[::-1]
            self._top_bars = ax.barh(ys, np.zeros(5), color="tab:purple")
            self._top_text = [ax.text(0, y, "", va="center", fontsize=10) for y in ys]
            ax.set_xlim(0, 1.6)
            ax.set_ylim(-0.6, 4.6)
            ax.set_yticks([])
            ax.set_xticks([0, 0.5, 1.0])
            ax.set_title("输出概率 前 5 名", fontsize=10.5)
            ax.set_xlabel("$\\mathrm{softmax}(W_s\\,\\tilde{h}_t)$")
        self._shape = (S, H)
        self._relayout = True
        self._suptitle = self._fig.suptitle(" ", fontsize=11.5, y=0.99, va="top")
        for artist in self._step_artists():
            artist.set_animated(True)  # drawn per step on top of the cached background
            artist.set_in_layout(False)  # the layout depends on the static parts only, never on the step

    def _step_artists(self) -> list:
        """Everything that changes from one step to the next (the rest is the cached background)."""
        return [*self._score_bars, *self._alpha_bars, *self._alpha_text, *self._strips,
                *self._top_bars, *self._top_text, self._suptitle]

    def _draw(self) -> None:
        trace = self._trace
        st = trace.steps[self.step.value - 1]
        self.trace = st
        S, H = len(trace.src_tokens), st.h_t.shape[0]
        if self._shape != (S, H) or trace.src_tokens != self._tokens:
            self._tokens = list(trace.src_tokens)
            self._layout(S, H)
        self._ax_score.set_title(score_panel_title(self._model(self.score.value).config), fontsize=10.5)
        peak = int(np.argmax(st.alpha))
        for i, (bar, value) in enumerate(zip(self._score_bars, st.scores)):
            bar.set_height(value)
            bar.set_color(_PEAK if i == peak else _BAR)
        for i, (bar, value) in enumerate(zip(self._alpha_bars, st.alpha)):
            bar.set_height(value)
            bar.set_color(_PEAK if i == peak else _BAR)
        for i, text in enumerate(self._alpha_text):
            text.set_position((i, st.alpha[i] + 0.02))
            text.set_text(f"{st.alpha[i]:.2f}" if st.alpha[i] >= 0.005 else "")
        for strip, vector in zip(self._strips, (st.h_t, st.context, st.h_tilde)):
            strip.set_data(vector[None, :])
        ys = np.arange(5)[::-1]
        for k, (bar, text, y) in enumerate(zip(self._top_bars, self._top_text, ys)):
            p = float(st.top_probs[k]) if k < len(st.top_probs) else 0.0
            bar.set_width(p)
            text.set_position((p + 0.03, y))
            text.set_text(f"{st.top_tokens[k]}  {p:.2f}" if k < len(st.top_tokens) else "")
        name = trace.variant.replace("luong-", "")
        self._suptitle.set_text(f"“{_short(' '.join(trace.src_tokens))}”　{name} 打分　第 t = {st.t} 步："
                                f"输入 “{st.prev_token}” → 输出 “{st.token}”")
        self._render(trace)
        self.readout.value = self._readout_html(trace, st)

    def _render(self, trace: DecodingTrace) -> None:
        """Blit: draw the static parts once per sentence and model, then only the per-step artists.

        The axes, ticks, labels and titles stay the same while the step slider moves (the score axis
        has one range for all steps of the sentence), so they are drawn into a background that is
        kept; each step restores it and draws the bars, numbers, strips and title on top."""
        canvas = self._fig.canvas
        if self._background is None or self._background_of is not trace or self._relayout:
            scores = np.concatenate([s.scores for s in trace.steps])  # one range for every step t
            low, high = min(0.0, float(scores.min())), max(0.0, float(scores.max()))
            pad = 0.08 * (high - low or 1.0)
            self._ax_score.set_ylim(low - pad, high + pad)
            if self._relayout:  # constrained layout only when the axes changed; then keep the positions
                self._fig.set_layout_engine("constrained", rect=(0, 0, 1, _TITLE_TOP))  # room for the title
            canvas.draw()  # everything but the animated (per-step) artists
            if self._relayout:
                self._fig.set_layout_engine("none")
                self._relayout = False
            self._background, self._background_of = canvas.copy_from_bbox(self._fig.bbox), trace
        else:
            canvas.restore_region(self._background)
        for artist in sorted(self._step_artists(), key=lambda a: a.get_zorder()):
            self._fig.draw_artist(artist)
        self.image.value = canvas_to_png(self._fig)

    @staticmethod
    def _readout_html(trace: DecodingTrace, st: StepTrace) -> str:
        order = np.argsort(-st.alpha)[:3]
        src = "，".join(f"{html.escape(trace.src_tokens[i])} {st.alpha[i]:.2f}" for i in order)
        top = "，".join(f"{html.escape(t)} {p:.2f}" for t, p in zip(st.top_tokens, st.top_probs))
        copies = {c.tgt_index: c for c in trace.copied}
        done = [html.escape(s.token) for s in trace.steps[: st.t]]
        done = [f"{w} (copy ← {html.escape(copies[k].word)})" if k in copies else w for k, w in enumerate(done)]
        done[-1] = f"<b style='color:#b00'>{done[-1]}</b>"
        return (f"<div>第 t = {st.t} 步：α 最大的源词 (top source words) {src}　|　α 之和 = {st.alpha.sum():.3f}"
                f"<br>输出前 5 名 (top-5 tokens)：{top}<br>已生成 (so far)：{' '.join(done)}</div>")


def _first_step(step) -> int:
    """The ``step`` argument of StepThrough as an int >= 1 (a larger one is cut to the last step later)."""
    import math
    import numbers

    ok = isinstance(step, numbers.Integral) or (isinstance(step, float) and math.isfinite(step) and step.is_integer())
    if isinstance(step, bool) or not ok or step < 1:
        raise HelpersError(f"step 应为从 1 开始的整数 (an int, t = 1 is the first output token)，实际 (got) {step!r}。"
                           "例如 StepThrough('i am a student .', step=2)。")
    return int(step)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
