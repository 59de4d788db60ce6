"""Static teaching figures for 9.10.1 (Fig. 9-23's idea, the history) and 9.10.3 part 1 (Fig. 9-24).

* ``lake_scene()``              a lake with an egret, drawn procedurally with numpy (no photo, no
                                download); the same picture every time. ``EGRET_XY`` is where the bird is.
* ``spotlight_weights()``       a soft disc of focus over the image, normalised to sum to 1 (a weight map)
* ``apply_spotlight()``         keep the focus bright and dim the rest (Fig. 9-23's idea)
* ``plot_spotlight()``          the static spotlight figure: scene, focused scene, weight map
* ``plot_timeline()``           the history of 9.10.1: William James 1890, Mnih 2014, Bahdanau 2014,
                                Luong 2015, the later fields, and the Transformer (2017, section 10.2)
* ``plot_retrieval_pipeline()`` Fig. 9-24 as a diagram: Query -> similarity with Keys -> α -> Values -> result
* ``plot_temperature_sweep()``  softmax(scores / τ) for several temperatures: soft -> hard attention

Plot functions use pyplot (a notebook shows them with ``plt.show()``) and return the Figure.
Image coordinates are fractions: x of the width (left 0 -> right 1), y of the height (top 0 -> bottom 1),
radius of the width.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from helpers.runtime.errors import HelpersError
from helpers.viz import setup_chinese_font

__all__ = [
    "EGRET_XY",
    "apply_spotlight",
    "lake_scene",
    "plot_retrieval_pipeline",
    "plot_spotlight",
    "plot_temperature_sweep",
    "plot_timeline",
    "spotlight_weights",
]

EGRET_XY = (0.625, 0.43)  # (x, y) fractions: the egret's body and neck
_BASE_W, _BASE_H = 360.0, 240.0  # the scene is designed on this grid and scaled


# --------------------------------------------------------------------------- the generated scene
def _cover(distance: np.ndarray, scale: float) -> np.ndarray:
    """Anti-aliased coverage of a shape whose signed distance (in base pixels) is ``distance``."""
    return np.clip(0.5 - distance * scale, 0.0, 1.0)


def _paint(img: np.ndarray, coverage: np.ndarray, color, alpha: float = 1.0) -> None:
    a = (alpha * coverage)[..., None]  # [H, W, 1]
    img *= 1.0 - a
    img += a * np.asarray(color, dtype=float)


def _segment_distance(X, Y, p, q):
    """Distance from every grid point to the segment p-q."""
    (px, py), (qx, qy) = p, q
    dx, dy = qx - px, qy - py
    t = np.clip(((X - px) * dx + (Y - py) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
    return np.hypot(X - (px + t * dx), Y - (py + t * dy))


def _polyline_distance(X, Y, points):
    return np.minimum.reduce([_segment_distance(X, Y, p, q) for p, q in zip(points[:-1], points[1:])])


def _ellipse_distance(X, Y, center, a, b, angle_deg):
    """Approximate signed distance to an ellipse (good enough for anti-aliased edges)."""
    t = np.deg2rad(angle_deg)
    x, y = X - center[0], Y - center[1]
    u = x * np.cos(t) + y * np.sin(t)
    v = -x * np.sin(t) + y * np.cos(t)
    r = np.hypot(u / a, v / b)
    return (r - 1.0) * min(a, b)


def _draw_egret(img, X, Y, scale, dx=0.0, dy=0.0, flip=False, alpha=1.0):
    """The egret, standing in shallow water and facing left. ``flip`` mirrors it vertically (reflection)."""

    def pt(x, y):
        return (x + dx, (2 * 156 - y if flip else y) + dy)

    white, shade = (0.97, 0.97, 0.95), (0.80, 0.82, 0.84)
    legs = [[pt(231, 124), pt(228, 156)], [pt(238, 124), pt(241, 156)]]
    for leg in legs:
        _paint(img, _cover(_polyline_distance(X, Y, leg) - 0.9, scale), (0.12, 0.12, 0.12), alpha)
    body_c = pt(236, 114)
    _paint(img, _cover(_ellipse_distance(X, Y, body_c, 21, 10, 20 if not flip else -20), scale), white, alpha)
    wing = _ellipse_distance(X, Y, pt(242, 113), 14, 5.5, 24 if not flip else -24)
    _paint(img, _cover(wing, scale), shade, 0.55 * alpha)
    neck = [pt(219, 108), pt(212, 96), pt(218, 84), pt(212, 72)]
    _paint(img, _cover(_polyline_distance(X, Y, neck) - 3.2, scale), white, alpha)
    head = np.hypot(X - pt(210, 69)[0], Y - pt(210, 69)[1]) - 5.0
    _paint(img, _cover(head, scale), white, alpha)
    beak = [pt(206, 69), pt(189, 73)]
    _paint(img, _cover(_polyline_distance(X, Y, beak) - 1.3, scale), (0.95, 0.72, 0.15), alpha)
    eye = np.hypot(X - pt(208, 67.5)[0], Y - pt(208, 67.5)[1]) - 1.1
    _paint(img, _cover(eye, scale), (0.05, 0.05, 0.05), alpha)


def lake_scene(width: int = 360, seed: int = 0) -> np.ndarray:
    """A lake-and-egret scene as a float RGB array [H, W, 3] in [0, 1], H = 2/3 W. Deterministic."""
    if not isinstance(width, int) or not 60 <= width <= 2000:
        raise HelpersError(f"width 应为 60 到 2000 之间的整数 (an int in [60, 2000])，实际 (got) {width!r}。")
    rng = np.random.default_rng(seed)
    W, H = width, width * 2 // 3
    scale = W / _BASE_W  # output pixels per base pixel
    X, Y = np.meshgrid((np.arange(W) + 0.5) / scale, (np.arange(H) + 0.5) / scale)  # base coordinates
    img = np.zeros((H, W, 3))
    horizon = 100.0
    # sky: blue at the top, pale near the horizon
    t = np.clip(Y / horizon, 0, 1)[..., None]
    img[:] = (1 - t) * np.array([0.45, 0.66, 0.90]) + t * np.array([0.86, 0.91, 0.95])
    # far mountains and a tree line on the far shore
    ridge = 70 + 9 * np.sin(X / 37.0 + 1.0) + 6 * np.sin(X / 13.0)
    _paint(img, _cover(ridge - Y, scale), (0.55, 0.63, 0.72))
    trees = 91 + 3 * np.sin(X / 5.0) + 2.5 * np.sin(X / 2.3 + 0.5) + 2 * np.sin(X / 17.0)
    _paint(img, _cover(trees - Y, scale), (0.22, 0.40, 0.27))
    # the lake: darker with depth, with soft ripples
    water = Y > horizon
    depth = np.clip((Y - horizon) / (_BASE_H - horizon), 0, 1)[..., None]
    lake = (1 - depth) * np.array([0.52, 0.68, 0.80]) + depth * np.array([0.20, 0.38, 0.55])
    phases = rng.uniform(0, 2 * np.pi, size=3)
    ripple = (np.sin(Y * 1.7 + 0.6 * np.sin(X / 9.0 + phases[0])) * np.sin(X / 23.0 + phases[1])
              + 0.5 * np.sin(Y * 0.9 + X / 31.0 + phases[2]))
    lake = lake + 0.035 * ripple[..., None]
    img[water] = lake[water]
    # a reflection of the tree line just below the horizon
    _paint(img, _cover(Y - (horizon + 6 + 1.5 * np.sin(X / 4.0)), scale) * water, (0.22, 0.40, 0.27), 0.35)
    # the egret and its faint, rippled reflection
    _draw_egret(img, X, Y, scale, alpha=0.28, flip=True, dx=0.0, dy=0.0)
    _draw_egret(img, X, Y, scale)
    # the near bank at the bottom left, with reeds
    bank = 205 + 0.25 * (X - 0) - 12 * np.sin(X / 40.0)
    _paint(img, _cover(bank - Y, scale), (0.47, 0.42, 0.26))
    grass = 208 + 0.25 * X - 12 * np.sin(X / 40.0)
    _paint(img, _cover(grass - Y, scale), (0.33, 0.45, 0.20))
    for x0 in np.sort(rng.uniform(4, 120, size=14)):
        base_y = 210 + 0.25 * x0 - 12 * np.sin(x0 / 40.0)
        top = (x0 + rng.uniform(-6, 6), base_y - rng.uniform(35, 70))
        stem = _polyline_distance(X, Y, [(x0, base_y), top]) - 0.8
        _paint(img, _cover(stem, scale), (0.25, 0.36, 0.15))
    for x0 in rng.uniform(300, 356, size=6):
        top = (x0 + rng.uniform(-4, 4), 150 - rng.uniform(10, 30))
        stem = _polyline_distance(X, Y, [(x0, 160), top]) - 0.7
        _paint(img, _cover(stem, scale), (0.25, 0.36, 0.15), 0.9)
    return np.clip(img, 0.0, 1.0)


# --------------------------------------------------------------------------- the spotlight
MAX_IMAGE_SIDE = 4000  # pixels per side
MAX_IMAGE_PIXELS = 4_000_000  # H * W: a 2000 x 2000 photo; larger pictures only cost memory here
MAX_ASPECT = 8.0  # the longer side at most 8 times the shorter one


def _check_size(H: int, W: int, where: str) -> None:
    """Bounds on an image's size, checked before any pixel is converted (a few bytes can declare gigabytes)."""
    if min(H, W) < 2 or max(H, W) > MAX_IMAGE_SIDE or H * W > MAX_IMAGE_PIXELS or max(H, W) > MAX_ASPECT * min(H, W):
        raise HelpersError(
            f"图像尺寸不合适 (image size out of bounds){where}：{H} × {W} 像素。每边应在 2 到 {MAX_IMAGE_SIDE} 之间，"
            f"总像素不超过 {MAX_IMAGE_PIXELS:,}，长边不超过短边的 {MAX_ASPECT:g} 倍。请先把图片缩小或裁剪，"
            "例如 PIL.Image.open(path).resize((600, 400))。"
        )


def _read_image_file(path) -> np.ndarray:
    """An image file (PNG, JPEG, ...) -> float RGB [H, W, 3] in [0, 1]; size checked from the header first."""
    from pathlib import Path

    from PIL import Image, UnidentifiedImageError

    path = Path(path)
    try:
        with Image.open(path) as im:  # reads the header only
            W, H = im.size
            _check_size(H, W, f"（文件 {path.name[:60]}）")
            rgb = np.asarray(im.convert("RGB"), dtype=float) / 255.0  # [H, W, 3]
    except HelpersError:
        raise
    except FileNotFoundError:
        raise HelpersError(f"找不到图像文件 (image file not found): {path.name[:60]}。请检查路径。") from None
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as exc:
        raise HelpersError(f"无法读取图像文件 (cannot read image) {path.name[:60]}：{type(exc).__name__}。"
                           "请给出 PNG 或 JPEG 文件，或一个 [H, W, 3] 的数组。") from None
    return rgb


def _check_image(image) -> np.ndarray:
    """An RGB array [H, W, 3] (values 0..1 or 0..255) or an image file path -> float RGB [H, W, 3] in [0, 1]."""
    import os

    if isinstance(image, (str, os.PathLike)):
        return _read_image_file(image)
    try:
        img = image if isinstance(image, np.ndarray) else np.asarray(image)
    except (ValueError, TypeError):
        img = None
    if img is None or img.dtype == object or img.dtype.kind not in "biuf" or img.ndim != 3 or img.shape[2] != 3:
        got = "？" if img is None else f"{img.shape} {img.dtype}"
        raise HelpersError(
            f"图像应为 RGB 数组 [H, W, 3] (an RGB array) 或图像文件路径 (an image path)，实际 (got) {got}。"
            "请传入 lake_scene()、形状为 [H, W, 3] 的数组，或 'lake.png' 这样的路径。"
        )
    _check_size(img.shape[0], img.shape[1], "")
    img = img.astype(float)
    if not np.isfinite(img).all() or img.min(initial=0.0) < 0 or img.max(initial=0.0) > 255:
        raise HelpersError("图像的值应在 0..1 或 0..255 之间，且没有 NaN / inf (pixel values in 0..1 or 0..255)。")
    if img.max(initial=0.0) > 1.0:
        img = img / 255.0
    return img


def spotlight_weights(shape, x: float, y: float, radius: float, softness: float = 0.02) -> np.ndarray:
    """A soft disc of focus at (x, y) over an image of ``shape`` [H, W]; the weights sum to 1."""
    H, W = int(shape[0]), int(shape[1])
    cols = (np.arange(W) + 0.5) / W  # [W]
    rows = (np.arange(H) + 0.5) / W  # [H], measured in widths so the disc is round
    d = np.hypot(cols[None, :] - x, rows[:, None] - y * H / W)  # [H, W]
    inside = 0.5 * (1.0 - np.tanh((d - radius) / max(softness, 1e-6)))  # 1 inside, 0 outside
    return inside / inside.sum() if inside.sum() > 0 else np.full((H, W), 1.0 / (H * W))


def apply_spotlight(image, x: float, y: float, radius: float, dim: float = 0.3) -> np.ndarray:
    """Keep the disc at (x, y) bright and darken the rest to ``dim`` of its brightness (Fig. 9-23's idea)."""
    img = _check_image(image)
    w = spotlight_weights(img.shape, x, y, radius)
    focus = (w / w.max())[..., None]  # [H, W, 1], 1 in the disc
    return img * (dim + (1.0 - dim) * focus)


def plot_spotlight(image=None, x: float = EGRET_XY[0], y: float = EGRET_XY[1], radius: float = 0.14,
                   dim: float = 0.3):
    """Static spotlight figure: the whole scene, the focused scene (the rest at ``dim`` of its brightness),
    and the focus as a weight map."""
    setup_chinese_font()
    img = lake_scene() if image is None else _check_image(image)
    H, W = img.shape[:2]
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.4), layout="constrained")
    axes[0].imshow(img)
    axes[0].set_title("整个画面：处处同等对待")
    axes[1].imshow(apply_spotlight(img, x, y, radius, dim=dim))
    axes[1].add_patch(plt.Circle((x * W, y * H), radius * W, fill=False, color="gold", lw=1.5, ls="--"))
    axes[1].set_title("注视白鹭：焦点清晰，周围变暗")
    weights = spotlight_weights(img.shape, x, y, radius)
    shown = axes[2].imshow(weights, cmap="magma")
    axes[2].set_title("注意力权重图（所有像素权重之和 = 1）")
    fig.colorbar(shown, ax=axes[2], shrink=0.85, format="%.1e")
    for ax in axes:
        ax.set_xticks([])
        ax.set_yticks([])
    return fig


# --------------------------------------------------------------------------- the history
_EVENTS = [
    # (who, year, what, colour); placed in order, alternating above and below the axis
    ("Mnih 等", "2014", "循环网络每步只看一小块\n（glimpse），做图像分类", "tab:purple"),
    ("Bahdanau 等", "2014", "首次用于机器翻译\n（加法形式）", "tab:red"),
    ("Luong 等", "2015", "机器翻译（乘法形式；\n全局与局部注意力）", "tab:red"),
    ("Chorowski 等", "2015", "语音识别", "tab:green"),
    ("Xu 等", "2015", "图像描述：\n软注意力与硬注意力", "tab:green"),
    ("Rush 等", "2015", "文本摘要", "tab:green"),
    ("Yang 等", "2016", "文本分类\n（层次注意力网络）", "tab:green"),
    ("Vaswani 等", "2017", "Transformer：\n只用注意力（见 10.2 节）", "tab:gray"),
]


def _event(ax, x, height, text, color, text_color="black"):
    ax.plot([x], [0], "o", color=color, ms=9, zorder=3)
    ax.annotate(text, (x, 0), (x, height), ha="center", va="center", fontsize=9.5, color=text_color,
                bbox={"boxstyle": "round", "fc": "white", "ec": color},
                arrowprops={"arrowstyle": "-", "color": color})


def plot_timeline():
    """The history of 9.10.1 as a timeline (events in order, evenly spaced; 1890 -> 2014 is cut)."""
    setup_chinese_font()
    fig, ax = plt.subplots(figsize=(12, 4.4), layout="constrained")
    ax.axhline(0, color="black", lw=1.2, zorder=1)
    ax.plot([0.6, 1.0], [0, 0], color="white", lw=4, zorder=2)  # the break in the axis
    ax.text(0.8, 0, "≈", ha="center", va="center", fontsize=16, zorder=3)
    _event(ax, 0.0, -1.8, "1890  William James\n《心理学原理》：注意力是\n意识的选择与聚焦", "tab:blue", "tab:blue")
    for i, (who, year, what, color) in enumerate(_EVENTS):
        _event(ax, 1.6 + 1.3 * i, 1.8 if i % 2 == 0 else -1.8, f"{year}  {who}\n{what}", color)
    handles = [plt.Line2D([], [], marker="o", ls="", color=c, label=label) for c, label in [
        ("tab:blue", "心理学"), ("tab:purple", "计算机视觉"), ("tab:red", "机器翻译（本节主角）"),
        ("tab:green", "更多应用领域"), ("tab:gray", "下一步：Transformer")]]
    ax.legend(handles=handles, loc="lower center", ncol=5, fontsize=9.5, frameon=False)
    ax.set_xlim(-1.3, 12.0)
    ax.set_ylim(-3.4, 2.7)
    ax.set_title("注意力机制简史（按先后顺序排列，不按年份比例；1890 与 2014 之间省略）")
    ax.axis("off")
    return fig


# --------------------------------------------------------------------------- Fig. 9-24
def _box(ax, x, y, text, color, width=2.2, height=0.62, fontsize=10):
    from matplotlib.patches import FancyBboxPatch

    ax.add_patch(FancyBboxPatch((x - width / 2, y - height / 2), width, height,
                                boxstyle="round,pad=0.04", fc=color, ec="0.35", lw=1))
    ax.text(x, y, text, ha="center", va="center", fontsize=fontsize)


def _arrow(ax, start, end, color="0.3", lw=1.0):
    ax.annotate("", end, start, arrowprops={"arrowstyle": "->", "color": color, "lw": lw})


def plot_retrieval_pipeline(query: str, titles, scores, alpha, values, result: str):
    """Fig. 9-24 as a diagram: the Query compared with every Key (title), scores -> α -> Values -> result.

    ``titles``/``values`` are texts (one per video), ``scores``/``alpha`` numbers of the same length.
    """
    setup_chinese_font()
    titles, values = list(titles), list(values)
    scores, alpha = np.asarray(scores, dtype=float), np.asarray(alpha, dtype=float)
    N = len(titles)
    if not (len(values) == N == scores.size == alpha.size) or N == 0:
        raise HelpersError("titles、scores、alpha、values 的长度必须相同且不为 0 (same non-zero length)。")
    fig, ax = plt.subplots(figsize=(13, 0.75 * N + 1.6), layout="constrained")
    ys = np.arange(N)[::-1] * 0.85 + 0.5
    mid = ys.mean()
    _box(ax, 0.9, mid, f"查询 Query\n“{query}”", "#fde9c8", width=1.6, height=1.0, fontsize=11)
    best = int(np.argmax(alpha))
    for i, y in enumerate(ys):
        _arrow(ax, (1.75, mid), (2.85, y), color="0.6", lw=0.8)
        _box(ax, 4.0, y, titles[i], "#dbe9f6", width=2.2)
        ax.text(5.35, y, f"{scores[i]:g}", ha="center", va="center", fontsize=10)
        ax.barh(y, 1.1 * alpha[i], left=5.95, height=0.42, color="tab:red" if i == best else "tab:orange")
        ax.text(5.95 + 1.1 * alpha[i] + 0.07, y, f"{alpha[i]:.3f}", va="center", fontsize=9)
        _arrow(ax, (7.75, y), (8.22, y), color="0.6", lw=0.8)
        _box(ax, 9.5, y, values[i], "#e3f1df", width=2.5, fontsize=9)
        _arrow(ax, (10.8, y), (11.45, mid), color="0.6", lw=0.5 + 2.5 * alpha[i])
    _box(ax, 12.35, mid, result, "#f3dcea", width=1.7, height=1.5, fontsize=9.5)
    top = ys.max() + 0.75
    for x, label in [(4.0, "键 Keys（标题）"), (5.35, "相似度 s"), (6.6, "权重 α = softmax(s)"),
                     (9.5, "值 Values（视频内容）"), (12.35, "返回结果")]:
        ax.text(x, top, label, ha="center", va="center", fontsize=10.5)
    ax.set_title("图 9-24 的检索流程：Query → 与每个 Key 比较 → α → 按 α 汇总 Values", fontsize=12)
    ax.set_xlim(-0.1, 13.3)
    ax.set_ylim(ys.min() - 0.6, top + 0.35)
    ax.axis("off")
    return fig


def plot_temperature_sweep(scores, labels, temperatures=(5.0, 1.0, 0.5, 0.1)):
    """One bar panel per temperature τ of softmax(scores / τ), then the hard (one-hot) panel."""
    setup_chinese_font()
    s = np.asarray(scores, dtype=float)
    labels = list(labels)
    if s.ndim != 1 or s.size != len(labels) or s.size == 0:
        raise HelpersError("scores 与 labels 的长度必须相同且不为 0 (same non-zero length)。")
    if any(t <= 0 for t in temperatures):
        raise HelpersError("温度 τ 必须大于 0 (temperature must be > 0)；τ → 0 的极限就是硬注意力。")
    panels = [(f"τ = {t:g}", np.exp((s - s.max()) / t) / np.exp((s - s.max()) / t).sum()) for t in temperatures]
    panels.append(("硬注意力 (one-hot)", np.eye(s.size)[int(np.argmax(s))]))
    fig, axes = plt.subplots(1, len(panels), figsize=(2.6 * len(panels) + 1.2, 0.42 * s.size + 1.5),
                             sharey=True, layout="constrained")
    ys = np.arange(s.size)[::-1]
    for ax, (name, alpha) in zip(axes, panels):
        colors = ["tab:red" if a == alpha.max() else "tab:orange" for a in alpha]
        ax.barh(ys, alpha, color=colors)
        for y, a in zip(ys, alpha):
            inside = a > 0.8
            ax.text(a - 0.03 if inside else a + 0.02, y, f"{a:.2f}", va="center", fontsize=8.5,
                    ha="right" if inside else "left", color="white" if inside else "black")
        ax.set_xlim(0, 1.05)
        ax.set_title(name + f"\n最大 α = {alpha.max():.2f}", fontsize=10)
        ax.set_xticks([0, 0.5, 1])
    axes[0].set_yticks(ys, labels)
    fig.suptitle("温度越低，softmax 越尖锐：软注意力 → 硬注意力")
    return fig


def plot_kernel_regression(x_train, y_train, taus=(0.05, 0.5, 5.0), x_mark: float | None = 2.0, ax=None):
    """Notebook 04: training points, the Nadaraya-Watson curve for each τ, and (optionally) α at one query point."""
    import matplotlib.pyplot as plt

    from helpers.extras.kernel_regression import kernel_weights, nadaraya_watson

    if ax is None:
        _, ax = plt.subplots(figsize=(7.5, 3.8))
    grid = np.linspace(min(x_train) - 0.2, max(x_train) + 0.2, 300)
    for tau in taus:
        ax.plot(grid, nadaraya_watson(grid, x_train, y_train, tau)[0], lw=1.8, label=f"τ = {tau:g}")
    if x_mark is not None:
        alpha = kernel_weights(x_mark, x_train, taus[len(taus) // 2])[0]
        ax.scatter(x_train, y_train, s=30 + 400 * alpha, c="tab:red", alpha=0.45, zorder=2,
                   label=f"点的大小：x = {x_mark:g} 处的 α（τ = {taus[len(taus) // 2]:g}）")
        ax.axvline(x_mark, color="grey", lw=0.8, ls=":")
    ax.scatter(x_train, y_train, color="black", s=14, zorder=3, label="训练点 (x_i, y_i)")
    ax.set_xlabel("x（查询 Query；训练点的 x_i 是键 Keys）")
    ax.set_ylabel("y（训练点的 y_i 是值 Values）")
    ax.legend(fontsize=8, loc="best")
    ax.set_title("核回归：预测 = 附近训练点的 y_i 按 α 加权平均")
    return ax.figure
