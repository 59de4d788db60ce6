"""``AttentionExplorer``: the alignment-heatmap explorer of notebooks 07a (full) and 03 (compact).

What it shows, for an English sentence and a trained model (the weights α of Eq. (9-37), one row per
decoding step, drawn as the heatmap of Fig. 9-22):

* a heatmap with the English source on the x axis and the Chinese output on the y axis; the current
  decoding step (``.step``) is framed;
* a side readout of the source words with the largest weights at that step (in the PNG and in
  ``.readout``);
* the gold alignment (sure links solid, possible links dashed, toggled by ``.show_gold``) and the
  sentence's alignment error rate (AER, ``helpers.metrics.aer``) when the sentence is a corpus
  sentence and the model's output equals its reference;
* beside that readout, the five most probable next tokens at that step with their probabilities (the
  teacher-forced softmax along the shown output, ``helpers.decode.translation_topk``), the chosen one in
  orange: the row's attention next to the choice it led to (``.next_tokens()``);
* under both, the beam view: the hypotheses beam search of width ``.beam`` (with the model's other
  decoding options) kept at that step, with their log-probabilities, the ones that ended there with their
  final scores, and ★ on the chosen hypothesis and its prefix (``.beam_table()``, ``.beam_trace``);
* a compare mode (``.compare``): two models side by side on the same sentence (the candidates of both in
  the HTML readout; no side panels in the picture).

Speed: the figure is built once per sentence / model / mode (a fixed layout computed from the token
lengths, no layout engine); a step change or the gold toggle only restores the cached background and
redraws the few moving artists (blitting), then encodes the PNG. ``helpers.tools.bench.measure_explorer_latency()``
reports the medians (``python -m helpers.tools.bench``; ``python scripts/bench_widgets.py`` for this figure alone).

Bad input never raises into the notebook: every observer catches, and ``.message`` says what is wrong.
"""

from __future__ import annotations

import html
import io
from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np

from helpers.corpus import PHENOMENA_ZH
from helpers.runtime.errors import HelpersError, check_int
from helpers.widgets.base import PngBox, new_figure

__all__ = [
    "ATTENTION_MODELS",
    "MAX_WIDGET_TOKENS",
    "PHENOMENA_ZH",
    "AttentionExplorer",
    "default_model",
    "example_sentences",
    "find_gold",
    "sentence_text",
]

ATTENTION_MODELS = ("luong-general", "luong-dot", "luong-concat", "bahdanau")
DEFAULT_MAX_AER = 0.15  # the default model's attention must align well (issue 22's AER target)
MAX_WIDGET_TOKENS = 60  # the longest sentences of the "long" split (41-60 tokens)
MAX_CHARS = 2000
DEFAULT_BEAM = 3  # the beam view's width when the explorer opens
MAX_VIEW_BEAM = 5  # the widest beam the view offers (2 k rows of the table must fit under the panels)
DPI = 90
NO_COMPARE = "无"
_ERR = "<span style='color:#b00'>{}</span>"
_NOTE = "<span style='color:#555'>{}</span>"


def default_model(record=None, max_aer: float = DEFAULT_MAX_AER) -> str:
    """The model the explorer opens on: the softest attention among the ones that align well.

    The first heatmap a student meets should show soft weights (several source words share a step's
    attention), not near one-hot rows, and still put them in the right place. Rule, on the shipped
    models' ``metrics.json`` (``record``; default: ``helpers.checkpoint.load_metrics``): among the
    attention models with test AER ≤ ``max_aer``, the one with the lowest mean max-α (ties: the order
    of ``ATTENTION_MODELS``). If none aligns that well, the one with the lowest AER; without a metrics
    record, the first of ``ATTENTION_MODELS``.
    """
    if record is None:
        from helpers.checkpoint import load_metrics

        record = load_metrics(missing_ok=True)
    rows = {name: (record or {}).get("models", {}).get(name, {}).get("test", {}) for name in ATTENTION_MODELS}
    rows = {n: t for n, t in rows.items() if t.get("aer") is not None and t.get("max_alpha") is not None}
    if not rows:
        return ATTENTION_MODELS[0]
    good = [n for n in ATTENTION_MODELS if n in rows and rows[n]["aer"] <= max_aer]
    if good:
        return min(good, key=lambda n: rows[n]["max_alpha"])
    return min((n for n in ATTENTION_MODELS if n in rows), key=lambda n: rows[n]["aer"])


def drawable(text: str) -> str:
    """``helpers.viz.drawable`` (imported late: matplotlib loads with the first figure)."""
    from helpers.viz import drawable as _drawable

    return _drawable(text)


# --------------------------------------------------------------------------- corpus look-ups
_GOLD: dict = {}


def _gold_index() -> dict:
    if not _GOLD:
        from helpers.corpus import design_examples, load_corpus

        for split in ("long", "train", "valid", "test"):  # later splits win (test last)
            _GOLD.update((p.src, p) for p in load_corpus(split))
        _GOLD.update((p.src, p) for p in design_examples())
    return _GOLD


def sentence_text(tokens) -> str:
    """English tokens -> a sentence that ``tokenize_en`` splits back into the same tokens.

    Plain ``" ".join`` does not round-trip the possessive: "tom 's" is re-tokenised as tom ' s, so
    "'s" is glued to the word before it ("tom's")."""
    out: list[str] = []
    for token in tokens:
        if token == "'s" and out:
            out[-1] += token
        else:
            out.append(token)
    return " ".join(out)


def find_gold(src_tokens):
    """The corpus ``Pair`` (with gold links) whose English tokens are ``src_tokens``, or None."""
    return _gold_index().get(tuple(src_tokens))


def example_sentences() -> list[tuple[str, str]]:
    """(label, sentence) pairs for the ``.examples`` dropdown: the DESIGN examples, one test sentence
    per reordering phenomenon (each sentence listed once), and two long ones."""
    from helpers.corpus import design_examples, load_corpus

    out = [(f"例 {k + 1}: {sentence_text(p.src)}", sentence_text(p.src)) for k, p in enumerate(design_examples())]
    test = load_corpus("test")
    for tag, name in PHENOMENA_ZH.items():
        # a sentence shows several phenomena: each entry takes the first one not listed yet
        listed = {sentence for _, sentence in out}
        pair = next((p for p in test if tag in p.phenomena and len(p.src) <= 12
                     and sentence_text(p.src) not in listed), None)
        if pair is not None:
            out.append((f"{name}: {sentence_text(pair.src)}", sentence_text(pair.src)))
    for pair in load_corpus("long")[:2]:
        text = sentence_text(pair.src)
        out.append((f"长句 ({len(pair.src)} 词): {text[:50]}…", text))
    return out


# --------------------------------------------------------------------------- models
_PRETRAINED: dict = {}


def _pretrained(name: str):
    if name not in _PRETRAINED:
        from helpers.checkpoint import load_pretrained

        _PRETRAINED[name] = load_pretrained(name)
    return _PRETRAINED[name]


def _shipped_attention_models() -> list[str]:
    from helpers.checkpoint import list_pretrained

    present = set(list_pretrained())
    return [n for n in ATTENTION_MODELS if n in present]


# --------------------------------------------------------------------------- one panel's data
@dataclass
class _View:
    """What one heatmap panel shows: a model's translation of the sentence and its gold alignment."""

    name: str
    translation: object  # helpers.decode.Translation
    rows: list[str]  # target tokens (+ "<eos>")
    cols: list[str]  # source tokens (+ "<eos>")
    gold: object | None  # corpus Pair or None
    gold_usable: bool  # gold known and the output equals the reference
    aer: float | None
    topk: object | None = None  # helpers.decode.TopK along the translation (one row per attention row)
    beam: object | None = None  # helpers.decode.BeamTrace of beam search on the same source
    tgt_vocab: object | None = None

    @property
    def attention(self) -> np.ndarray:
        return self.translation.attention  # [T, S]

    def row(self, t: int) -> int:
        """The attention row of decoding step ``t`` (t = 1 is the first output token), kept in range."""
        return min(max(int(t), 1), len(self.rows)) - 1

    def top_index(self, t: int, k: int = 5) -> list[int]:
        """Source positions of the k largest weights at decoding step ``t`` (ties: leftmost first)."""
        weights = self.attention[self.row(t)]  # [S]
        return [int(i) for i in np.argsort(-weights, kind="stable")[:k]]

    def top(self, t: int, k: int = 5) -> list[tuple[str, float]]:
        weights = self.attention[self.row(t)]  # [S]
        return [(self.cols[i], float(weights[i])) for i in self.top_index(t, k)]

    def candidates(self, t: int) -> tuple[list[tuple[str, float, bool]], tuple[str, float, int] | None]:
        """The most probable next tokens at step ``t``: [(token, probability, is the chosen one)], and
        (token, probability, rank) of the chosen token when it is not among them (else None)."""
        if self.topk is None:
            return [], None
        j = min(self.row(t), len(self.topk.chosen) - 1)
        chosen = self.topk.chosen[j]
        rows = [(drawable(tok), float(p), int(i) == chosen)
                for tok, p, i in zip(self.topk.tokens[j], self.topk.probs[j], self.topk.ids[j])]
        if any(c for *_, c in rows):
            return rows, None
        return rows, (drawable(self._name(chosen)), float(self.topk.chosen_prob[j]), self.topk.chosen_rank[j])

    def _name(self, token_id: int) -> str:
        return self.tgt_vocab.itos[token_id] if self.tgt_vocab is not None else str(token_id)

    def hypothesis(self, ids, end: bool = False, limit: int = 0) -> str:
        """Tokens of a beam hypothesis joined by spaces (+ " <eos>"); ``limit`` > 0 keeps the last characters."""
        text = drawable(" ".join([self._name(int(i)) for i in ids] + (["<eos>"] if end else [])))
        return text if not limit or len(text) <= limit else "…" + text[-(limit - 1):]

    def beam_rows(self, t: int) -> tuple[int, list[tuple[str, str, str, str]]]:
        """(the beam step shown, rows) for decoding step ``t``: one row per hypothesis kept after that step
        and per hypothesis that ended there; each row is (mark, hypothesis, log p, note).
        ★ marks the chosen hypothesis and, at earlier steps, its prefix."""
        trace = self.beam
        if trace is None:
            return 0, []
        si = min(max(int(t), 1), len(trace.steps)) - 1
        step = trace.steps[si]
        best_tokens = trace.chosen[0]
        rows = []
        for rank, (ids, logp) in enumerate(step.kept, 1):
            on_path = list(ids) == list(best_tokens[: len(ids)]) and len(ids) <= len(best_tokens)
            rows.append(("★" if on_path else "", f"{rank}. {self.hypothesis(ids, limit=26)}", _logp(logp), ""))
        for hi, (ids, logp, score, finished) in enumerate(step.ended):
            won = (si, hi) == trace.best
            note = ("结束" if finished else "到长度上限") + f"，得分 {_logp(score)}"
            rows.append(("★" if won else "", self.hypothesis(ids, end=finished, limit=26), _logp(logp),
                         note + ("，最终选中" if won else "")))
        return step.t, rows

    def aer_text(self, short: bool = False) -> str:
        if self.gold is None:
            return "AER —（无标准对齐）" if short else "AER：—，无标准对齐 (no gold alignment)"
        if not self.gold_usable:
            return "AER —（译文≠参考）" if short else "AER：—，译文与参考不同 (output ≠ reference)"
        return f"AER = {self.aer:.2f}"


def _make_view(name, translation, topk=None, beam=None, tgt_vocab=None) -> _View:
    from helpers.metrics import aer

    src, tgt = list(translation.src_tokens), list(translation.tgt_tokens)
    T, S = translation.attention.shape
    rows = tgt + ["<eos>"] * (T - len(tgt))
    cols = src + ["<eos>"] * (S - len(src))
    for i in getattr(translation, "unknown", []):  # a word outside the vocabulary, read as <unk>
        cols[i] = f"{cols[i]} (unk)"
    for c in getattr(translation, "copied", []):  # the <unk> output replaced by the source word it attends to
        rows[c.tgt_index] = f"{c.word} (copy ← {src[c.src_index]})"
    rows, cols = [drawable(r) for r in rows], [drawable(c) for c in cols]  # typed emoji etc. draw as "?"
    gold = find_gold(src)
    usable = gold is not None and list(gold.tgt) == tgt
    value = aer(translation.attention, gold.sure, gold.possible, n_src=len(src), n_tgt=len(tgt)) if usable else None
    return _View(name, translation, rows, cols, gold, usable, value, topk, beam, tgt_vocab)


# --------------------------------------------------------------------------- layout (inches)
def _text_width(tokens, size: float) -> float:
    """Rough width in inches of the longest token at font size ``size`` (CJK = 1 em, Latin = 0.62 em)."""
    em = size / 72
    return max((sum(1.0 if ord(ch) > 0x2E80 else 0.62 for ch in t) * em for t in tokens), default=0.0)


@dataclass
class _Layout:
    cell_w: float
    cell_h: float
    font_x: float  # English tick labels
    font_y: float  # Chinese tick labels
    left: float  # room for the Chinese tick labels + axis label
    bottom: float  # room for the rotated English tick labels + axis label


def _layout(cols, rows, compact: bool) -> _Layout:
    S, T = len(cols), len(rows)
    max_w, max_h = (5.0, 4.2) if compact else (8.2, 7.5)  # the side panels take 6 in: at most 1400 px in all
    cell_w = min(0.34 if compact else 0.44, max_w / S)
    cell_h = min(0.28 if compact else 0.34, max_h / T)
    font_x = float(np.clip(cell_w * 24, 6.5, 10))
    font_y = float(np.clip(cell_h * 30, 6.5, 10))
    left = 0.45 + _text_width(rows, font_y) + 0.1
    bottom = 0.45 + 0.71 * _text_width(cols, font_x) + 0.15
    return _Layout(cell_w, cell_h, font_x, font_y, left, bottom)


PANEL = 1.75  # inches: the side length of the two bar panels
LINE = 0.19  # inches per line of the beam table
TABLE_COLUMNS = (0.0, 0.2, 2.95, 3.1)  # mark, hypothesis, log p (right-aligned), note: offsets in inches
TABLE_ALIGN = ("left", "left", "right", "left")


def _prob(p: float) -> str:
    """A probability for the panel: 3 decimals, or 2 significant digits below 0.001."""
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


def _logp(value: float) -> str:
    """A log-probability: 3 decimals, or 2 significant digits when it would print as -0.000."""
    return f"{value:.3f}" if abs(value) >= 0.0005 or value == 0 else f"{value:.1e}"


# --------------------------------------------------------------------------- the widget
class AttentionExplorer(PngBox):
    """Alignment heatmaps of the trained models, live (notebook 07a; ``compact=True`` for notebook 03).

    Controls: ``.sentence`` (Text), ``.examples`` (Dropdown filling ``.sentence``), ``.beam`` (IntSlider, the
    beam view's width 1..5; not in compact mode), ``.model``
    (Dropdown of the shipped models with attention + models added with ``add_model``), ``.step``
    (IntSlider over the decoding steps t = 1 … T; step t is row t - 1 of the attention matrix), ``.show_gold``
    (Checkbox), ``.compare`` (Dropdown, "无" or a second model; not in compact mode).
    Outputs: ``.image`` (PNG), ``.readout`` (HTML: translation, AER, top source words at this step),
    ``.message`` (HTML: errors and notes).
    ``model``: a shipped model's name, a model object, or None = ``default_model()`` (the softest
    attention among the models that align well, read from metrics.json).
    """

    TOP_K = 5

    def __init__(self, model=None, sentence: str = "i am a student .", compact: bool = False):
        if not isinstance(sentence, str):
            raise HelpersError(f"sentence 应为英文句子字符串 (a str)，实际 (got) {type(sentence).__name__}。"
                               "例如 AttentionExplorer(sentence='i am a student .')。")
        self.compact = bool(compact)
        self._session: dict = {}  # name -> model added with add_model
        self._cache: dict = {}  # (model name, source tokens) -> Translation
        self._views: list[_View] = []
        self._busy = False
        self._bg = None
        self._dyn: list[dict] = []  # per panel: the axes and the artists that change
        self._axes_key = None  # (number of heatmaps, readout panel?) the axes were built for
        self._cand: dict = {}  # the top-5 next-token panel (single view, not compact)
        self._table: dict = {}  # the beam table's text artists
        self._shown_text = None  # the sentence text the picture shows (None before the first good one)
        wide = {"description_width": "initial"}
        self.sentence = widgets.Text(value="", description="英文句子 (sentence)", continuous_update=False,
                                     placeholder="例如：i am a student .", style=wide,
                                     layout=widgets.Layout(width="34em"))
        self.examples = widgets.Dropdown(options=[("— 选一个例句 (pick an example) —", "")], value="",
                                         description="例句", style=wide, layout=widgets.Layout(width="30em"))
        self.model = widgets.Dropdown(options=[], description="模型 (model)", style=wide)
        self.compare = widgets.Dropdown(options=[NO_COMPARE], value=NO_COMPARE, description="对比 (compare)",
                                        style=wide)
        self.step = widgets.IntSlider(value=1, min=1, max=1, description="解码步 t (step)", style=wide,
                                      continuous_update=True)
        self.show_gold = widgets.Checkbox(value=True, description="显示标准对齐 (gold)", indent=False)
        self.beam = widgets.IntSlider(value=DEFAULT_BEAM, min=1, max=MAX_VIEW_BEAM, description="束宽 k (beam size)",
                                      style=wide, continuous_update=False)
        self.image = widgets.Image(format="png")
        self.readout = widgets.HTML()
        self.message = widgets.HTML()
        self._fig = new_figure(6, 4)
        self._fig.set_layout_engine(None)  # fixed layout computed in _rebuild: fast and stable
        self._fig.set_dpi(DPI)

        try:
            self.examples.options = [self.examples.options[0], *example_sentences()]
        except Exception as exc:  # the corpus is code; this would be a broken install
            self._error(exc)
        self._refresh_model_options()
        if model is None:
            try:
                model = default_model()
            except HelpersError:  # a broken metrics.json: open on the first model, the message says why
                model = ATTENTION_MODELS[0]
        if not isinstance(model, str):
            self.add_model(getattr(model, "name", None) or "my-model", model)
            model = self.model.options[-1] if self.model.options else ""
        if model in self.model.options:
            self.model.value = model
        elif model:
            self._error(HelpersError(f"没有这个模型 (unknown model) {model!r}：可选 (available) "
                                     f"{list(self.model.options)}。用 add_model(name, model) 加入自己训练的模型。"))

        self.sentence.observe(self._on_input, names="value")
        self.model.observe(self._on_input, names="value")
        self.compare.observe(self._on_input, names="value")
        self.step.observe(self._on_step, names="value")
        self.show_gold.observe(self._on_step, names="value")
        self.examples.observe(self._on_example, names="value")
        self.beam.observe(self._on_input, names="value")

        wrap = widgets.Layout(flex_flow="row wrap")  # narrow notebooks wrap controls instead of cutting them
        row1 = widgets.HBox([self.sentence, self.examples], layout=wrap)
        row2 = widgets.HBox([self.model, self.step, self.show_gold] + ([] if self.compact else [self.compare, self.beam]),
                            layout=widgets.Layout(flex_flow="row wrap"))
        children = [row1, row2, self.image, self.message, self.readout]
        super().__init__(children)
        self.sentence.value = sentence  # triggers the first translation + drawing

    # ----------------------------------------------------------------- public helpers
    @property
    def translation(self):
        """The current ``Translation`` of the main model (None before the first good sentence)."""
        return self._views[0].translation if self._views else None

    @property
    def aer(self) -> float | None:
        """AER of the main model on the current sentence (None without usable gold)."""
        return self._views[0].aer if self._views else None

    @property
    def gold(self):
        """The corpus ``Pair`` of the current sentence, or None."""
        return self._views[0].gold if self._views else None

    @property
    def n_panels(self) -> int:
        """How many heatmaps are drawn (2 in compare mode)."""
        return len(self._views)

    def top_words(self, k: int = TOP_K, panel: int = 0) -> list[tuple[str, float]]:
        """The k source words with the largest weights at the current step, with their weights.

        ``panel``: 0 = the main model, 1 = the compared one (compare mode); ``k`` an int in 1..MAX_WIDGET_TOKENS + 1."""
        k = check_int("k", k, 1, MAX_WIDGET_TOKENS + 1, "例如 top_words(3)。")
        if not self._views:
            return []
        last = len(self._views) - 1
        panel = check_int("panel", panel, 0, last,
                          "panel=0 是主模型 (main model)" + ("，panel=1 是对比的模型 (compared model)。" if last else
                                                            "；要看第二个模型，请先在“对比”中选择一个模型 (compare mode)。"))
        return self._views[panel].top(self.step.value, k)

    def next_tokens(self, panel: int = 0) -> list[tuple[str, float, bool]]:
        """The TOP_K most probable next tokens at the current step: (token, probability, chosen?), most
        probable first, as the candidates panel shows them (``helpers.decode.translation_topk``)."""
        if not self._views:
            return []
        last = len(self._views) - 1
        panel = check_int("panel", panel, 0, last, "panel=0 是主模型 (main model)，panel=1 是对比的模型 (compared model)。")
        return self._views[panel].candidates(self.step.value)[0]

    def beam_table(self) -> tuple[int, list[tuple[str, str, str, str]]]:
        """(beam step shown, rows) of the beam table at the current step: (mark, hypothesis, log p, note);
        ★ marks the chosen hypothesis and its prefix. (0, []) before the first sentence or in compact mode."""
        if not self._views:
            return 0, []
        return self._views[0].beam_rows(self.step.value)

    @property
    def beam_trace(self):
        """The ``helpers.decode.BeamTrace`` behind the beam table (None in compact mode)."""
        return self._views[0].beam if self._views else None

    def add_model(self, name: str, model) -> None:
        """Offer ``model`` (e.g. one trained in this notebook) under ``name`` in ``.model`` and ``.compare``.

        The model needs vocabularies (``helpers.train.make_model`` / ``load_checkpoint`` give them) and an
        attention decoder. A model of the same name replaces the earlier one.
        """
        if not isinstance(name, str) or not name.strip():
            raise HelpersError("add_model 需要一个名字 (a non-empty str name)，例如 add_model('my-luong', model)。")
        if getattr(model, "src_vocab", None) is None or getattr(model, "tgt_vocab", None) is None:
            raise HelpersError("这个模型没有词表 (model has no vocabularies)：请用 helpers.train.make_model(...) "
                               "或 helpers.load_checkpoint(...) 得到的模型。")
        if not getattr(model, "has_attention", True):
            raise HelpersError(f"模型 {name!r} 没有注意力 (no attention)，画不出热力图。请选择带注意力的模型。")
        self._session[name] = model
        self._cache = {k: v for k, v in self._cache.items() if k[0] != name}
        self._refresh_model_options()
        self.message.value = _NOTE.format(html.escape(f"已加入模型 (model added)：{name}。在“模型”下拉框中选择它。"))

    # ----------------------------------------------------------------- observers (never raise)
    def _on_example(self, change):
        try:
            if change["new"]:
                self.sentence.value = change["new"]
        except Exception as exc:
            self._error(exc)

    def _on_input(self, change=None):
        if self._busy:
            return
        try:
            self._update_sentence()
        except Exception as exc:
            self._error(exc)

    def _on_step(self, change=None):
        if self._busy or not self._views:
            return
        try:
            note = self._clamp_step()
            self._draw_dynamic()
            self._update_readout()
            if note or _ERR.split("{")[0] in self.message.value:  # an earlier error no longer applies
                self.message.value = _NOTE.format(html.escape(" ".join(filter(None, [note, self._notes()]))))
        except Exception as exc:
            self._error(exc)

    def _clamp_step(self) -> str:
        """Put a step outside 1..T (a slider widened by code) back in range; returns a note or ""."""
        T = max(len(v.rows) for v in self._views)
        wanted = self.step.value
        if 1 <= wanted <= T:
            return ""
        self._busy = True
        try:
            self.step.value = min(max(wanted, 1), T)
        finally:
            self._busy = False
        return f"没有第 t = {wanted} 步 (no such step)：t 从 1 到 {T}，已显示第 t = {self.step.value} 步。"

    # ----------------------------------------------------------------- work
    def _refresh_model_options(self):
        try:
            shipped = _shipped_attention_models()
        except Exception:
            shipped = []
        names = shipped + [n for n in self._session if n not in shipped]
        self._busy = True
        try:
            current, other = self.model.value, self.compare.value
            self.model.options = names
            if current in names:
                self.model.value = current
            self.compare.options = [NO_COMPARE, *names]
            self.compare.value = other if other in names else NO_COMPARE
        finally:
            self._busy = False
        if not names:
            self.message.value = _ERR.format(html.escape(
                "找不到带注意力的预训练模型 (no pretrained attention models)：请运行 make pretrained，"
                "或用 add_model(name, model) 加入自己训练的模型。"))

    def _get_model(self, name):
        if name in self._session:
            return self._session[name]
        return _pretrained(name)

    def _translate(self, name: str, text: str):
        from helpers.corpus import tokenize_en
        from helpers.decode import translate

        key = (name, tuple(tokenize_en(text)))
        if key not in self._cache:
            result = translate(self._get_model(name), text)
            if result.attention is None:
                raise HelpersError(f"模型 {name!r} 没有注意力 (no attention)，画不出热力图。")
            if len(self._cache) > 256:
                self._cache.clear()
            self._cache[key] = result
        return self._cache[key]

    def _check_text(self, text) -> str:
        from helpers.corpus import tokenize_en

        if not isinstance(text, str):
            raise HelpersError(f"请输入英文句子字符串 (a str)，收到 (got) {type(text).__name__}。")
        if len(text) > MAX_CHARS:  # counted in characters: one long word is a long input too
            raise HelpersError(
                f"输入太长 (input too long)：{len(text)} 个字符，这里最多 {MAX_CHARS} 个字符 (characters)。"
                f"请输入一个不超过 {MAX_WIDGET_TOKENS} 个词的英文句子，或从“例句”里选一个长句。")
        n = len(tokenize_en(text))
        if n > MAX_WIDGET_TOKENS:
            raise HelpersError(
                f"句子太长 (sentence too long)：{n} 个词，这里最多 {MAX_WIDGET_TOKENS} 个词 (words)。"
                "请把它拆成几个短句，或从“例句”里选一个长句。")
        return text

    def _update_sentence(self):
        text = self._check_text(self.sentence.value)
        if not self.model.value:
            raise HelpersError("没有可用的模型 (no model)：请运行 make pretrained，或用 add_model(name, model) 加入。")
        names = [self.model.value]
        if not self.compact and self.compare.value not in (NO_COMPARE, None, ""):
            names.append(self.compare.value)
        views = []
        for k, n in enumerate(names):
            result = self._translate(n, text)
            beam = self._beam_trace(n, result) if k == 0 and not self.compact else None
            views.append(_make_view(n, result, self._topk(n, result), beam, self._get_model(n).tgt_vocab))
        old_step = self.step.value
        self._views = views
        T = max(len(v.rows) for v in views)
        self._busy = True
        try:
            self.step.min, self.step.max = 1, max(T, 1)
            self.step.value = min(max(old_step, 1), T)
        finally:
            self._busy = False
        self._rebuild()
        self._draw_dynamic()
        self._update_readout()
        self._shown_text = self.sentence.value
        self.message.value = _NOTE.format(html.escape(self._notes()))

    def _topk(self, name: str, result):
        """The TOP_K most probable next tokens along ``result``'s output (``helpers.decode.translation_topk``)."""
        from helpers.decode import translation_topk

        key = (name, tuple(result.src_tokens), "topk", tuple(result.tgt_tokens))
        if key not in self._cache:
            self._cache[key] = translation_topk(self._get_model(name), result, k=self.TOP_K)
        return self._cache[key]

    def _beam_trace(self, name: str, result):
        """Beam search of width ``.beam`` on ``result``'s source, with the model's other decoding options."""
        from helpers.decode import beam_trace, shipped_decoding, translation_ids

        k = check_int("beam", self.beam.value, 1, MAX_VIEW_BEAM, f"束宽 k 取 1 到 {MAX_VIEW_BEAM} (beam size)。")
        key = (name, tuple(result.src_tokens), "beam", k)
        if key not in self._cache:
            model = self._get_model(name)
            src, _ = translation_ids(model, result)
            self._cache[key] = beam_trace(model, src, **{**shipped_decoding(model), "beam_size": k})
        return self._cache[key]

    def _notes(self) -> str:
        v = self._views[0]
        notes = []
        if v.translation.note:
            notes.append(v.translation.note)
        if v.gold is None:
            notes.append("这个句子不在语料里，无标准对齐 (no gold alignment)，所以没有 AER。")
        elif not v.gold_usable:
            notes.append("模型译文与参考译文不同 (output ≠ reference)：标准对齐是按参考译文标注的，"
                         "不能叠加到这张图上，也就没有 AER。")
        if v.translation.copied:
            words = "、".join(f"“{c.word}”" for c in v.translation.copied)
            notes.append(f"词表之外的词 (unknown words) 读作 <unk>；译文里的 {words} 是按注意力从源句复制的 "
                         "(copied through attention: the source word with the largest weight at that step)。")
        if not notes:
            notes.append("拖动“解码步”滑块，看每个中文词生成时注意力落在哪些英文词上；红框是标准对齐。")
        if self._shown_text is not None and self.sentence.value != self._shown_text:
            notes.append(f"图中仍是上一个句子 (still showing the last good sentence)：“{sentence_text(v.translation.src_tokens)}”。")
        return " ".join(notes)

    # ----------------------------------------------------------------- drawing
    def _rebuild(self):
        """Lay out the figure for the current views (new sentence, model or mode) and cache its background.

        The axes and their artists are created only when the number of panels changes; a new sentence
        re-uses them (new image data, ticks, gold links and positions)."""
        from matplotlib.collections import PatchCollection
        from matplotlib.patches import Rectangle

        fig, views = self._fig, self._views
        lays = [_layout(v.cols, v.rows, self.compact) for v in views]
        heat_w = [len(v.cols) * lay.cell_w for v, lay in zip(views, lays)]
        heat_h = [len(v.rows) * lay.cell_h for v, lay in zip(views, lays)]
        readout = not self.compact and len(views) == 1
        top, right = 0.75, 0.25
        H = max(heat_h) + top + max(lay.bottom for lay in lays)
        x = [lays[0].left]
        for k in range(1, len(views)):  # leave room for the two-line title of the left panel
            x.append(max(x[-1] + heat_w[k - 1] + lays[k].left + 0.2, x[-1] + 3.6))
        width = max(x[-1] + heat_w[-1] + right, x[-1] + 3.3)  # room for the last panel's title
        if readout:  # two PANEL-inch panels side by side (the row's attention -> the choice), the beam table below
            readout_x = width + 1.0  # room for the source words left of the bars
            cand_x = readout_x + PANEL + 1.0  # room for the Chinese candidates left of their bars
            width = cand_x + PANEL + 0.45
            n_rows = max((len(st.kept) + len(st.ended) for st in views[0].beam.steps), default=0) \
                if views[0].beam is not None else 0
            table_top = top + PANEL + 0.75  # below the panels' axis labels
            table_h = LINE * (n_rows + 3)  # head, column titles, rows, the final line
            H = max(H, table_top + table_h + 0.2 + 0.55)  # + the legend
        fig.set_size_inches(width, H)
        if self._axes_key != (len(views), readout):
            fig.clear()
            self._axes_key = (len(views), readout)
            self._dyn = [self._new_heat_panel() for _ in views]
            self._cand, self._table = {}, {}
            if readout:
                self._dyn.append(self._new_readout_panel())
                self._cand = self._new_candidates_panel()
                self._table = self._new_beam_table()
        for k, (v, lay, dyn) in enumerate(zip(views, lays, self._dyn)):
            ax, S, T = dyn["ax"], len(v.cols), len(v.rows)
            ax.set_position([x[k] / width, (H - top - heat_h[k]) / H, heat_w[k] / width, heat_h[k] / H])
            dyn["image"].set_data(v.attention)
            dyn["image"].set_extent((-0.5, S - 0.5, T - 0.5, -0.5))
            ax.set_xlim(-0.5, S - 0.5)
            ax.set_ylim(T - 0.5, -0.5)
            ax.set_xticks(range(S), v.cols, rotation=45, ha="right", rotation_mode="anchor", fontsize=lay.font_x)
            ax.set_yticks(range(T), v.rows, fontsize=lay.font_y)
            for coll in dyn["gold"]:
                coll.remove()
            sure, maybe = [], []
            if v.gold_usable:
                sure = [Rectangle((i - 0.5, j - 0.5), 1, 1) for i, j in sorted(v.gold.sure)]
                maybe = [Rectangle((i - 0.5, j - 0.5), 1, 1) for i, j in sorted(v.gold.possible - v.gold.sure)]
            dyn["gold"] = [
                ax.add_collection(PatchCollection(sure, facecolor="none", edgecolor="tab:red", linewidth=1.6,
                                                  animated=True)),
                ax.add_collection(PatchCollection(maybe, facecolor="none", edgecolor="tab:red", linewidth=1.4,
                                                  linestyle=(0, (2, 2)), animated=True)),
            ]
            dyn["frame"].set_width(S)
            dyn["title"].set_position((max(x[k] - 0.35, 0.05) / width, 1 - 0.08 / H))
        if readout:
            self._dyn[-1]["ax"].set_position([readout_x / width, (H - top - PANEL) / H, PANEL / width, PANEL / H])
            self._cand["ax"].set_position([cand_x / width, (H - top - PANEL) / H, PANEL / width, PANEL / H])
            x0 = readout_x - 0.95  # the table's left edge, under the source words of the first panel
            for r, row in enumerate(self._table["rows"]):
                y = 1 - (table_top + LINE * (r + 2)) / H
                for artist, dx in zip(row, TABLE_COLUMNS):
                    artist.set_position(((x0 + dx) / width, y))
            self._table["head"].set_position((x0 / width, 1 - table_top / H))
            for artist, dx in zip(self._table["titles"], TABLE_COLUMNS):
                artist.set_position(((x0 + dx) / width, 1 - (table_top + LINE) / H))
            self._table["legend"].set_position((x0 / width, 0.12 / H))
        canvas = fig.canvas
        canvas.draw()
        self._bg = canvas.copy_from_bbox(fig.bbox)

    def _new_heat_panel(self) -> dict:
        from matplotlib.patches import Rectangle

        fig = self._fig
        ax = fig.add_axes([0, 0, 1, 1])
        image = ax.imshow(np.zeros((1, 1)), cmap="Blues", vmin=0.0, vmax=1.0, aspect="auto",
                          interpolation="nearest")
        ax.tick_params(length=2, pad=2)
        ax.set_xlabel("源语言 (English)", fontsize=9)
        ax.set_ylabel("输出 (中文)", fontsize=9)
        frame = ax.add_patch(Rectangle((-0.5, -0.5), 1, 1, fill=False, edgecolor="tab:orange", linewidth=2.5,
                                       animated=True, clip_on=False))
        title = fig.text(0, 1, "", va="top", ha="left", fontsize=10, animated=True)
        return {"ax": ax, "image": image, "frame": frame, "title": title, "gold": []}

    def _new_readout_panel(self) -> dict:
        """Bars of the TOP_K largest attention weights of the current row."""
        return self._new_bar_panel("注意力权重 α", "tab:blue")

    def _new_candidates_panel(self) -> dict:
        """Bars of the TOP_K most probable next tokens at the current step; the chosen one in orange."""
        return self._new_bar_panel("概率 p(下一个词)", "tab:gray")

    def _new_bar_panel(self, xlabel: str, color: str) -> dict:
        """TOP_K horizontal bars on a 0-1 axis, with a word and a value beside each and a heading."""
        from matplotlib.patches import Rectangle

        ax = self._fig.add_axes([0, 0, 1, 1])
        ax.set_xlim(0, 1.35)
        ax.set_ylim(self.TOP_K - 0.5, -0.5)
        ax.set_xticks([0, 0.5, 1.0], ["0", "0.5", "1"], fontsize=8)
        ax.set_yticks([])
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        ax.set_xlabel(xlabel, fontsize=9)
        bars = [ax.add_patch(Rectangle((0, r - 0.35), 0, 0.7, color=color, animated=True))
                for r in range(self.TOP_K)]
        words = [ax.text(-0.04, r, "", ha="right", va="center", fontsize=9, animated=True)
                 for r in range(self.TOP_K)]
        values = [ax.text(0, r, "", ha="left", va="center", fontsize=8, animated=True) for r in range(self.TOP_K)]
        head = ax.text(-0.55, -0.75, "", ha="left", va="bottom", fontsize=9, animated=True)
        return {"ax": ax, "bars": bars, "words": words, "values": values, "head": head}

    def _new_beam_table(self) -> dict:
        """Text artists of the beam table (positions set by ``_rebuild``): a head, column titles, 2 k rows."""
        fig = self._fig
        head = fig.text(0, 0, "", ha="left", va="top", fontsize=9, animated=True)
        titles = [fig.text(0, 0, text, ha=ha, va="top", fontsize=8, color="0.35")
                  for text, ha in zip(("", "假设 (hypothesis)", "log p", ""), TABLE_ALIGN)]
        rows = [[fig.text(0, 0, "", ha=ha, va="top", fontsize=8, animated=True) for ha in TABLE_ALIGN]
                for _ in range(2 * MAX_VIEW_BEAM + 1)]
        legend = fig.text(0, 0, "红色实线框 = 标准对齐 sure，红色虚线框 = possible，橙色框 = 当前解码步 t\n"
                          "橙色条 = 模型在这一步选中的词；★ = 束搜索最终选中的假设（及它在这一步的前缀）",
                          ha="left", va="bottom", fontsize=8, color="0.3")
        return {"head": head, "titles": titles, "rows": rows, "legend": legend}

    def _draw_dynamic(self):
        """Blit: restore the background, draw the step frame, titles, gold links and readout; encode the PNG."""
        fig, canvas = self._fig, self._fig.canvas
        canvas.restore_region(self._bg)
        t = self.step.value
        for v, dyn in zip(self._views, self._dyn):
            j = v.row(t)  # step t = row t - 1
            word, weight = v.top(t, 1)[0]
            dyn["frame"].set_y(j - 0.5)
            dyn["title"].set_text(f"{v.name}   {v.aer_text(short=True)}\nt = {j + 1}：“{v.rows[j]}” ← {word} ({weight:.2f})")
            for artist in (dyn["frame"], dyn["title"]):
                fig.draw_artist(artist)
            if self.show_gold.value:
                for coll in dyn["gold"]:
                    fig.draw_artist(coll)
        if "bars" in self._dyn[-1]:  # the readout panel
            dyn, v = self._dyn[-1], self._views[0]
            top = v.top(t, self.TOP_K)
            dyn["head"].set_text(f"t = {v.row(t) + 1} 时权重最大的源词")
            fig.draw_artist(dyn["head"])
            for r in range(self.TOP_K):
                word, weight = top[r] if r < len(top) else ("", 0.0)
                dyn["bars"][r].set_width(weight)
                dyn["words"][r].set_text(word)
                dyn["values"][r].set_text(f"{weight:.2f}" if word else "")
                dyn["values"][r].set_x(weight + 0.03)
                for artist in (dyn["bars"][r], dyn["words"][r], dyn["values"][r]):
                    fig.draw_artist(artist)
            self._draw_candidates(t)
            self._draw_beam_table(t)
        self.image.value = self._encode()

    def _draw_candidates(self, t: int):
        fig, dyn, v = self._fig, self._cand, self._views[0]
        rows, missing = v.candidates(t)
        head = f"t = {v.row(t) + 1} 时概率最大的 {self.TOP_K} 个词"
        if missing is not None:  # the output took a token outside the top k (a beam or a guarded <eos>)
            head += f"\n选中的 “{missing[0]}” 排第 {missing[2]}（p = {_prob(missing[1])}）"
        dyn["head"].set_text(head)
        fig.draw_artist(dyn["head"])
        for r in range(self.TOP_K):
            word, p, chosen = rows[r] if r < len(rows) else ("", 0.0, False)
            dyn["bars"][r].set_width(p)
            dyn["bars"][r].set_color("tab:orange" if chosen else "tab:gray")
            dyn["words"][r].set_text(word)
            dyn["values"][r].set_text((_prob(p) + (" ✓" if chosen else "")) if word else "")
            dyn["values"][r].set_x(p + 0.03)
            for artist in (dyn["bars"][r], dyn["words"][r], dyn["values"][r]):
                fig.draw_artist(artist)

    def _draw_beam_table(self, t: int):
        fig, table, v = self._fig, self._table, self._views[0]
        if v.beam is None:
            return
        shown, rows = v.beam_rows(t)
        k = v.beam.beam_size
        ended = "" if shown == v.row(t) + 1 else f"（束搜索在第 {shown} 步已结束 ended）"
        table["head"].set_text(f"束搜索 (beam search)，束宽 k = {k}：第 t = {shown} 步保留的假设{ended}")
        fig.draw_artist(table["head"])
        ids, logp, _, finished = v.beam.chosen
        same = "，与上面的译文相同" if list(ids) == list(v.topk.chosen[:len(ids)]) and finished and \
            len(ids) + 1 == len(v.topk.chosen) else "，与上面的译文不同"
        final = ("★", f"最终：{v.hypothesis(ids, end=finished, limit=26)}", _logp(logp), same.lstrip("，"))
        lines = rows + [final]
        for r, artists in enumerate(table["rows"]):
            cells = lines[r] if r < len(lines) else ("", "", "", "")
            for artist, text in zip(artists, cells):
                artist.set_text(text)
                artist.set_color("tab:orange" if cells[0] == "★" else "black")
                if text:  # an empty cell draws nothing: skip its layout
                    fig.draw_artist(artist)

    def _encode(self) -> bytes:
        from PIL import Image

        canvas = self._fig.canvas
        w, h = canvas.get_width_height(physical=True)
        img = Image.frombuffer("RGBA", (w, h), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")
        out = io.BytesIO()
        img.save(out, format="png", compress_level=1)
        return out.getvalue()

    def _update_readout(self):
        t = self.step.value
        parts = []
        for v in self._views:
            j = v.row(t)  # step t = row t - 1
            sure = v.gold.sure if v.gold_usable else set()
            maybe = v.gold.possible if v.gold_usable else set()
            cells = []
            for i in v.top_index(t, self.TOP_K):
                word, weight = v.cols[i], float(v.attention[j, i])
                mark = " ✓" if (i, j) in sure else (" ~" if (i, j) in maybe else "")
                cells.append(f"<td>{html.escape(word)}{mark}</td><td>{weight:.3f}</td>")
            ref = ("" if v.gold is None else
                   f"<br>参考译文 (reference)：{html.escape(''.join(v.gold.tgt))}")
            candidates, missing = v.candidates(t)
            cand = "".join(f"<tr><td>{html.escape(w)}{' ← 选中 (chosen)' if chosen else ''}</td><td>{_prob(p)}</td></tr>"
                           for w, p, chosen in candidates)
            if missing is not None:
                cand += (f"<tr><td>{html.escape(missing[0])} ← 选中 (chosen)，排第 {missing[2]} (rank)</td>"
                         f"<td>{_prob(missing[1])}</td></tr>")
            parts.append(
                f"<div style='display:inline-block;vertical-align:top;margin-right:2em'>"
                f"<b>{html.escape(v.name)}</b>：{html.escape(v.translation.text)}{ref}<br>"
                f"{html.escape(v.aer_text())}<br>t = {j + 1}，输出 “{html.escape(v.rows[j])}”，权重最大的源词："
                f"<table>{''.join(f'<tr>{c}</tr>' for c in cells)}</table>"
                f"t = {j + 1} 时概率最大的 {self.TOP_K} 个词 (top-{self.TOP_K} next tokens)：<table>{cand}</table>"
                f"{self._beam_html(v, t)}</div>")
        legend = ("<small>✓ = 标准对齐中的确定链接 (sure)，~ = 可能链接 (possible)；"
                  "图中红色实线框 = sure，虚线框 = possible，橙色框 = 当前解码步；"
                  "★ = 束搜索最终选中的假设 (the hypothesis beam search chose) 及它在这一步的前缀。</small>")
        self.readout.value = "".join(parts) + legend

    @staticmethod
    def _beam_html(v: _View, t: int) -> str:
        """The beam table of step ``t`` as HTML ("" without a beam trace)."""
        if v.beam is None:
            return ""
        shown, rows = v.beam_rows(t)
        ids, logp, score, finished = v.beam.chosen
        body = "".join(f"<tr><td>{mark}</td><td>{html.escape(hyp)}</td><td>{lp}</td><td>{html.escape(note)}</td></tr>"
                       for mark, hyp, lp, note in rows)
        return (f"束搜索 (beam search)，束宽 k = {v.beam.beam_size}，第 t = {shown} 步保留的假设 (hypotheses kept)，"
                f"log p = 各词对数概率之和 (sum of token log-probabilities)：<table>{body}</table>"
                f"最终选中 (chosen)：★ {html.escape(v.hypothesis(ids, end=finished))}，log p = {_logp(logp)}，"
                f"得分 (score) = {_logp(score)}")

    def _error(self, exc: Exception):
        if isinstance(exc, HelpersError):
            text = str(exc)
        else:
            text = (f"出了点问题 (unexpected error)：{type(exc).__name__}: {exc}。"
                    "图保持上一次的结果；请换一个句子或模型再试。")
        self.message.value = _ERR.format(html.escape(text))


# --------------------------------------------------------------------------- benchmark
