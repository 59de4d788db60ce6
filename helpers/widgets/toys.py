"""Three small interactive toys (ipywidgets 8 + matplotlib PNG), each with a static ``image/png`` fallback.

* ``TemperatureDemo`` (notebook 00) four scores, a temperature slider and the bars of α = softmax(s / τ):
                    the set-up check's widget, and a first look at attention weights.
* ``Spotlight``     (notebook 02, section 9.10.1) a movable focus over the generated lake scene that
                    dims the rest: Fig. 9-23's idea of visual attention.
* ``RetrievalToy``  (notebook 04, section 9.10.3 part 1) Fig. 9-24's video site: a query, the titles
                    as Keys, the video contents as Values, the weights α, and a temperature that moves
                    from soft attention to hard attention.

The toy video site behind ``RetrievalToy`` is plain data and numpy, usable without a widget:

* ``VOCAB``        the fixed vocabulary of 14 Chinese words; titles and queries are bags of these words
* ``FEATURES``     the four content dimensions of a Value: 动物, 音乐, 技术, 自然
* ``VIDEOS``       six ``Video`` records (title = Key, words, description, features = Value)
* ``tokenize_query(text)``  -> (known words, unknown words), longest match against ``VOCAB``
* ``bag_of_words(words)``   -> count vector [V]
* ``retrieve(query, temperature, hard)`` -> ``RetrievalResult``: scores s_i = k_i · q (a dot product),
  α = softmax(s / τ) (soft) or one-hot at the arg-max (hard), result = Σ_i α_i v_i
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np

from helpers.runtime.errors import EmptyInputError, HelpersError, UnknownWordError, check_float
from helpers.viz.teaching import EGRET_XY, _check_image, apply_spotlight, lake_scene, spotlight_weights
from helpers.widgets.base import PngBox, figure_to_png, new_figure

__all__ = [
    "FEATURES",
    "MAX_QUERY_CHARS",
    "VIDEOS",
    "VOCAB",
    "RetrievalResult",
    "RetrievalToy",
    "SPOT_RANGES",
    "Spotlight",
    "TemperatureDemo",
    "Video",
    "bag_of_words",
    "key_matrix",
    "retrieve",
    "softmax_with_temperature",
    "tokenize_query",
    "value_matrix",
]


# --------------------------------------------------------------------------- the toy video site
@dataclass(frozen=True)
class Video:
    """One video: its title (the Key), the title's words, and its content (the Value)."""

    title: str
    words: tuple[str, ...]
    description: str
    features: tuple[float, ...]  # [F], over FEATURES


FEATURES = ("动物", "音乐", "技术", "自然")
VIDEOS = (
    Video("可爱猫咪学钢琴", ("可爱", "猫咪", "学", "钢琴"), "一只橘猫踩着琴键弹出几个音", (1.0, 1.0, 0.0, 0.0)),
    Video("小狗学游泳", ("小狗", "学", "游泳"), "小狗第一次下水，学会了狗刨", (1.0, 0.0, 0.0, 0.5)),
    Video("湖边白鹭捕鱼", ("湖边", "白鹭", "捕鱼"), "白鹭在浅水里静立，突然叼起一条小鱼", (1.0, 0.0, 0.0, 1.0)),
    Video("注意力入门教程", ("注意力", "入门", "教程"), "用检索的比喻讲清查询、键和值", (0.0, 0.0, 1.0, 0.0)),
    Video("机器翻译实战", ("机器翻译", "实战"), "从零训练一个英译中的 Seq2Seq 模型", (0.0, 0.0, 1.0, 0.0)),
    Video("钢琴入门教程", ("钢琴", "入门", "教程"), "从认识琴键到弹出第一首小曲", (0.0, 1.0, 0.0, 0.0)),
)
VOCAB = tuple(dict.fromkeys(word for video in VIDEOS for word in video.words))
_INDEX = {word: i for i, word in enumerate(VOCAB)}
_LONGEST = max(map(len, VOCAB))
_SEPARATORS = re.compile(r"[\s,，。.!！?？、;；:：+]+")
MAX_QUERY_CHARS = 100


def tokenize_query(text: str) -> tuple[list[str], list[str]]:
    """Split a query into vocabulary words (longest match first) and the unknown pieces between them."""
    known, unknown = [], []
    for chunk in _SEPARATORS.split(text):
        i, pending = 0, ""
        while i < len(chunk):
            size = next((n for n in range(min(_LONGEST, len(chunk) - i), 0, -1) if chunk[i:i + n] in _INDEX), 0)
            if size:
                if pending:
                    unknown.append(pending)
                    pending = ""
                known.append(chunk[i:i + size])
                i += size
            else:
                pending += chunk[i]
                i += 1
        if pending:
            unknown.append(pending)
    return known, unknown


def bag_of_words(words) -> np.ndarray:
    """Count vector over VOCAB: entry j = how often VOCAB[j] occurs in ``words``. Shape [V]."""
    vector = np.zeros(len(VOCAB))
    for word in words:
        vector[_INDEX[word]] += 1.0
    return vector


def key_matrix() -> np.ndarray:
    """The Keys: one bag-of-words row per title. Shape [N, V]."""
    return np.stack([bag_of_words(video.words) for video in VIDEOS])


def value_matrix() -> np.ndarray:
    """The Values: one content-feature row per video. Shape [N, F]."""
    return np.array([video.features for video in VIDEOS])


@dataclass
class RetrievalResult:
    """One retrieval: the query words, scores s [N], weights α [N] and the returned content [F]."""

    words: list[str]
    unknown: list[str]
    scores: np.ndarray  # [N]  s_i = k_i · q
    alpha: np.ndarray  # [N]   softmax(s / τ), or one-hot when hard
    result: np.ndarray  # [F]  Σ_i α_i v_i
    best: int  # index of the largest score (the first one on a tie)
    hard: bool
    temperature: float

    @property
    def ties(self) -> list[int]:
        """Indices of every title that shares the largest score."""
        return [i for i, s in enumerate(self.scores) if s == self.scores[self.best]]


def _quote(words, limit: int = 5) -> str:
    shown = [f"“{w[:12]}{'…' if len(w) > 12 else ''}”" for w in words[:limit]]
    return "、".join(shown) + (f" 等 {len(words)} 个" if len(words) > limit else "")


def retrieve(query: str, temperature: float = 1.0, hard: bool = False) -> RetrievalResult:
    """Fig. 9-24: compare the query with every title, turn the scores into α, and mix the Values."""
    if not isinstance(query, str):
        raise HelpersError(f"查询必须是字符串 (query must be a str)，实际 (got) {type(query).__name__}。")
    if not query.strip():
        raise EmptyInputError("查询为空 (empty query)。请输入至少一个词，例如 “钢琴 入门”。")
    if len(query) > MAX_QUERY_CHARS:
        raise HelpersError(
            f"查询太长 (query too long)：共 {len(query)} 个字符。请缩短到 {MAX_QUERY_CHARS} 个字符以内，"
            "几个关键词就够了，例如 “钢琴 入门”。"
        )
    if not isinstance(temperature, (int, float)) or not math.isfinite(temperature) or temperature <= 0:
        raise HelpersError(f"温度 τ 必须是大于 0 的数 (temperature must be > 0)，实际 (got) {temperature!r}。")
    words, unknown = tokenize_query(query)
    if not words:
        raise UnknownWordError(
            f"查询里没有词表中的词 (no known words): {_quote(unknown)}。"
            f"请只用这些词 (known words): {'、'.join(VOCAB)}，例如 “钢琴 入门”。",
            words=unknown,
        )
    scores = key_matrix() @ bag_of_words(words)  # [N]
    best = int(np.argmax(scores))
    if hard:
        alpha = np.eye(len(VIDEOS))[best]  # [N] one-hot
    else:
        e = np.exp((scores - scores.max()) / temperature)
        alpha = e / e.sum()  # [N]
    return RetrievalResult(words, unknown, scores, alpha, alpha @ value_matrix(), best, bool(hard),
                           float(temperature))


# --------------------------------------------------------------------------- the widgets
def _slider(value, low, high, step, description):
    return widgets.FloatSlider(value=value, min=low, max=high, step=step, description=description,
                               continuous_update=False, readout_format=".2f",
                               style={"description_width": "initial"})


TEMPERATURE_RANGE = (0.1, 5.0)  # the slider of TemperatureDemo


def softmax_with_temperature(scores, temperature: float) -> np.ndarray:
    """α = softmax(s / τ) over a 1-D array of scores: non-negative weights that sum to 1.

    A large τ flattens α towards 1/n, a small τ sharpens it towards the highest score (still soft: every
    score keeps a weight). ``temperature`` must be a finite number > 0; the scores finite."""
    s = np.asarray(scores, dtype=float)
    if s.ndim != 1 or s.size == 0 or not np.isfinite(s).all():
        raise HelpersError(f"scores 应为一维的有限数列 (a 1-D list of finite numbers)，实际 (got) {scores!r}。")
    tau = check_float("temperature", temperature, 1e-6, 1e6, "例如 temperature=1.0。")
    z = s / tau
    e = np.exp(z - z.max())  # shifting by the maximum changes nothing and never overflows
    return e / e.sum()


class TemperatureDemo(PngBox):
    """Notebook 00's widget: bars of α = softmax(s / τ) for a few scores, and a temperature slider.

    ``.temperature`` is the FloatSlider (τ in ``TEMPERATURE_RANGE``), ``.image`` the PNG of the bars,
    ``.alpha`` the weights drawn last."""

    def __init__(self, scores=(1.0, 3.0, 0.5, 2.0), temperature: float = 1.0):
        self.scores = np.asarray(scores, dtype=float)
        softmax_with_temperature(self.scores, 1.0)  # refuses bad scores before any figure is made
        tau = check_float("temperature", temperature, *TEMPERATURE_RANGE, "例如 temperature=1.0。")
        n = len(self.scores)
        self._fig = new_figure(5.2, 2.9)
        self._ax = self._fig.add_subplot()
        labels = [f"候选 {i}\ns = {s:g}" for i, s in enumerate(self.scores, start=1)]
        self._bars = self._ax.bar(labels, np.full(n, 1 / n), color="tab:orange")
        self._texts = [self._ax.text(i, 0, "", ha="center", va="bottom", fontsize=9) for i in range(n)]
        self._ax.set_ylim(0, 1.1)
        self._ax.set_xlabel("候选对象 (item) 与它的打分 s (score)")
        self._ax.set_ylabel("注意力权重 α (weight)")
        self.temperature = widgets.FloatSlider(value=tau, min=TEMPERATURE_RANGE[0], max=TEMPERATURE_RANGE[1], step=0.1,
                                               description="温度 τ (temperature)",
                                               style={"description_width": "initial"})
        self.image = widgets.Image(format="png")
        self.temperature.observe(self._update, names="value")
        super().__init__([self.temperature, self.image])
        self._update()

    def _update(self, change=None):
        value = float(self.temperature.value)
        tau = min(max(value, TEMPERATURE_RANGE[0]), TEMPERATURE_RANGE[1]) if math.isfinite(value) else 1.0
        self.alpha = softmax_with_temperature(self.scores, tau)
        for bar, text, height in zip(self._bars, self._texts, self.alpha):
            bar.set_height(height)
            text.set_position((bar.get_x() + bar.get_width() / 2, height + 0.02))
            text.set_text(f"{height:.2f}")
        self._ax.set_title(f"α = softmax(s / τ)，温度 (temperature) τ = {tau:.1f}")
        self.image.value = figure_to_png(self._fig)


SPOT_RANGES = {"x": (0.0, 1.0), "y": (0.0, 1.0), "radius": (0.03, 0.6)}  # what each slider may mean


class Spotlight(PngBox):
    """Fig. 9-23's idea: an image with a movable focus (``.x``, ``.y``, ``.radius``) that dims the rest.

    Coordinates are fractions: x of the width (0 left, 1 right), y of the height (0 top, 1 bottom),
    radius of the width. ``image`` is an RGB array [H, W, 3] or the path of an image file (PNG, JPEG);
    the default is ``lake_scene()``. Sizes are bounded (at most 4000 pixels a side, 4 million in all);
    a slider whose range was widened by code is read within ``SPOT_RANGES``, with a note.
    """

    def __init__(self, image=None, x: float = EGRET_XY[0], y: float = EGRET_XY[1], radius: float = 0.14,
                 dim: float = 0.3):
        values = {name: check_float(name, value, *SPOT_RANGES[name]) for name, value in
                  (("x", x), ("y", y), ("radius", radius))}
        self._dim = check_float("dim", dim, 0.0, 1.0, "例如 dim=0.3（焦点外保留 30% 的亮度）。")
        self._scene = image is None
        self._img = lake_scene() if image is None else _check_image(image)  # [H, W, 3]
        self.x = _slider(values["x"], *SPOT_RANGES["x"], 0.01, "x（左 → 右）")
        self.y = _slider(values["y"], *SPOT_RANGES["y"], 0.01, "y（上 → 下）")
        self.radius = _slider(values["radius"], *SPOT_RANGES["radius"], 0.01, "半径 (radius)")
        self.message = widgets.HTML()
        self.image = widgets.Image(format="png")
        H, W = self._img.shape[:2]
        scale = min(1.0, 8.0 / (6.0 * H / W))  # a tall image gets a narrower figure, never taller than 8.5 in
        self._fig = new_figure(6.0 * scale, 6.0 * scale * H / W + 0.5)
        self._ax = self._fig.add_subplot()
        self._shown = self._ax.imshow(self._img)
        from matplotlib.patches import Circle

        self._circle = self._ax.add_patch(Circle((0, 0), 1, fill=False, color="gold", lw=1.5, ls="--"))
        self._ax.set_xticks([])
        self._ax.set_yticks([])
        for slider in (self.x, self.y, self.radius):
            slider.observe(self._update, names="value")
        super().__init__([widgets.HBox([self.x, self.y, self.radius]), self.image, self.message])
        self._update()

    def _focus(self) -> tuple[float, float, float, list[str]]:
        """(x, y, radius) read within SPOT_RANGES (NaN -> the middle), and the names of clamped sliders."""
        out, clamped = [], []
        for name in ("x", "y", "radius"):
            low, high = SPOT_RANGES[name]
            value = float(getattr(self, name).value)
            good = min(max(value, low), high) if math.isfinite(value) else (low + high) / 2
            if good != value:
                clamped.append(f"{name} = {value:g} → {good:.2f}")
            out.append(good)
        return out[0], out[1], out[2], clamped

    def _update(self, change=None):
        H, W = self._img.shape[:2]
        x, y, r, clamped = self._focus()
        self._shown.set_data(apply_spotlight(self._img, x, y, r, self._dim))
        self._circle.center = (x * W - 0.5, y * H - 0.5)
        self._circle.set_radius(r * W)
        self._ax.set_title(f"注视点 (focus) x = {x:.2f}, y = {y:.2f}，半径 = {r:.2f}")
        self.image.value = figure_to_png(self._fig)
        weights = spotlight_weights(self._img.shape, x, y, r)  # [H, W]
        share = float((weights > 0.5 * weights.max()).mean())
        note = f"亮区约占画面的 {share:.0%}，其余部分只保留 {self._dim:.0%} 的亮度。"
        if self._scene:
            inside = math.hypot(x - EGRET_XY[0], (y - EGRET_XY[1]) * H / W) < r
            note += " 白鹭在焦点里 (the egret is in focus)。" if inside else " 白鹭不在焦点里：试着把焦点移到白鹭身上。"
        if clamped:
            note += (f" 超出范围的值已限制 (clamped to the valid range)：{'，'.join(clamped)}；"
                     f"x、y 在 0..1 之间，半径在 {SPOT_RANGES['radius'][0]:g}..{SPOT_RANGES['radius'][1]:g} 之间。")
        self.message.value = html.escape(note)


_BEST, _OTHER = "tab:red", "tab:orange"


class RetrievalToy(PngBox):
    """Fig. 9-24's video site, live: type a query, watch α over the titles and the returned content.

    Controls: ``.query`` (Text), ``.temperature`` (FloatSlider, small = sharp), ``.hard`` (Checkbox,
    one-hot α). Readouts: ``.image`` (the PNG), ``.result`` (HTML table of s and α, and what is
    returned), ``.message`` (notes and errors). ``.last`` is the last successful ``RetrievalResult``.
    """

    def __init__(self, query: str = "钢琴 入门", temperature: float = 1.0, hard: bool = False):
        if not isinstance(query, str):
            raise HelpersError(f"查询必须是字符串 (query must be a str)，实际 (got) {type(query).__name__}。例如 “钢琴 入门”。")
        temperature = check_float("temperature", temperature, 0.05, 3.0, "例如 temperature=1.0（越小越接近硬注意力）。")
        if not isinstance(hard, bool):
            raise HelpersError(f"hard 应为 True 或 False (a bool)，实际 (got) {hard!r}。")
        self.query = widgets.Text(value=query, description="查询 Query", continuous_update=False,
                                  placeholder="例如：钢琴 入门", style={"description_width": "initial"})
        self.temperature = _slider(temperature, 0.05, 3.0, 0.05, "温度 τ (temperature)")
        self.hard = widgets.Checkbox(value=hard, description="硬注意力 (hard, one-hot α)", indent=False)
        self.result = widgets.HTML()
        self.message = widgets.HTML()
        self.image = widgets.Image(format="png")
        self.last: RetrievalResult | None = None
        self._fig = new_figure(9.0, 3.4)
        self._ax_alpha, self._ax_value = self._fig.subplots(1, 2, width_ratios=[3, 2])
        N, ys = len(VIDEOS), np.arange(len(VIDEOS))[::-1]
        self._bars = self._ax_alpha.barh(ys, np.zeros(N), color=_OTHER)
        self._labels = [self._ax_alpha.text(0, y, "", va="center", fontsize=9) for y in ys]
        self._ax_alpha.set_xlim(0, 1.15)
        self._ax_alpha.set_xlabel("注意力权重 α")
        self._ys = ys
        self._columns = self._ax_value.bar(FEATURES, np.zeros(len(FEATURES)), color="tab:green")
        self._values = [self._ax_value.text(i, 0, "", ha="center", fontsize=9) for i in range(len(FEATURES))]
        self._ax_value.set_ylim(0, 1.2)
        self._ax_value.set_ylabel("返回内容的特征值")
        for control in (self.query, self.temperature, self.hard):
            control.observe(self._update, names="value")
        controls = widgets.HBox([self.query, self.temperature, self.hard])
        super().__init__([controls, self.image, self.result, self.message])
        self._update()

    def _update(self, change=None):
        try:
            res = retrieve(self.query.value, self.temperature.value, self.hard.value)
        except HelpersError as err:
            self.message.value = f"<span style='color:#b00'>{html.escape(str(err))}</span>"
            self.result.value = "<i>结果未更新，仍显示上一次的检索 (result not updated)。</i>"
            return
        self.last = res
        self._draw(res)
        self.result.value = self._result_html(res)
        self.message.value = html.escape(self._notes(res))

    def _draw(self, res: RetrievalResult) -> None:
        for i, (bar, label, y) in enumerate(zip(self._bars, self._labels, self._ys)):
            bar.set_width(res.alpha[i])
            bar.set_color(_BEST if i == res.best else _OTHER)
            label.set_position((res.alpha[i] + 0.02, y))
            label.set_text(f"{res.alpha[i]:.2f}")
        self._ax_alpha.set_yticks(self._ys, [f"{v.title}  (s={s:g})" for v, s in zip(VIDEOS, res.scores)])
        mode = "硬注意力：one-hot" if res.hard else f"软注意力：τ = {res.temperature:.2f}"
        self._ax_alpha.set_title(f"查询词 {' + '.join(res.words)}  →  α（{mode}）", fontsize=10)
        for i, (column, text) in enumerate(zip(self._columns, self._values)):
            column.set_height(res.result[i])
            text.set_position((i, res.result[i] + 0.03))
            text.set_text(f"{res.result[i]:.2f}")
        returned = f"《{VIDEOS[res.best].title}》" if res.hard else "所有 Values 的加权和"
        self._ax_value.set_title(f"返回：{returned}", fontsize=10)
        self.image.value = figure_to_png(self._fig)

    @staticmethod
    def _result_html(res: RetrievalResult) -> str:
        rows = "".join(
            f"<tr style='{'font-weight:bold;color:#b00' if i == res.best else ''}'><td>{html.escape(v.title)}</td>"
            f"<td>{res.scores[i]:g}</td><td>{res.alpha[i]:.3f}</td></tr>"
            for i, v in enumerate(VIDEOS)
        )
        mix = "，".join(f"{name} {value:.2f}" for name, value in zip(FEATURES, res.result))
        best = VIDEOS[res.best]
        if res.hard:
            returned = f"只返回一个视频《{html.escape(best.title)}》：{html.escape(best.description)}"
        else:
            returned = (f"返回全部视频内容的加权和（{mix}）；权重最大的是《{html.escape(best.title)}》"
                        f"（α = {res.alpha[res.best]:.2f}）")
        return ("<table><tr><th>键 Key（标题）</th><th>相似度 s</th><th>权重 α</th></tr>"
                f"{rows}</table><p><b>返回 (returned)：</b>{returned}</p>")

    @staticmethod
    def _notes(res: RetrievalResult) -> str:
        notes = []
        if res.unknown:
            notes.append(f"已忽略词表之外的词 (ignored unknown words): {_quote(res.unknown)}。"
                         f"可用的词 (known words): {'、'.join(VOCAB)}。")
        if res.hard and len(res.ties) > 1:
            names = "、".join(f"《{VIDEOS[i].title}》" for i in res.ties)
            notes.append(f"{names} 并列最高分 (tie)，硬注意力取第一个。")
        if not notes:
            notes.append("试试把温度调低，或勾选“硬注意力”，看 α 怎样变成 one-hot。")
        return " ".join(notes)
