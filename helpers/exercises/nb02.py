"""Exercises of notebook 02_origins (9.10.1, Fig. 9-23): attention as a share of a fixed budget.

* ``nb02_spotlight_weights`` (code) ``spotlight_weights(h, w, cx, cy, radius)``: a hard disc of focus
                             written as a weight map [h, w] that sums to 1 (Fig. 9-23's idea)
* ``nb02_egret_share``       (reading) the share of the total weight that falls on the egret when the
                             spotlight of ``helpers.viz.teaching.spotlight_weights`` has radius 0.05
* ``nb02_hard_gradient``     (prediction, then a run) the derivative of the egret's share with respect to
                             the centre of a hard spotlight (``nb02_hard_gradient_why``: the reason)
"""

from __future__ import annotations

import numpy as np

from helpers.exercises import Exercise, LazyExercise, register
from helpers.exercises.engine import NOT_FINISHED, Verdict, call_answer, exception_text
from helpers.exercises.kinds import (
    function_answer,
    near,
    number_answer,
    outside,
    percent,
    reason_answer,
)
from helpers.reveals import HARD, RADIUS, SOFT, STEP, egret_share_slope  # noqa: F401 (re-exported)

_NB = "02_origins"


def _as_array(out):
    """The student's output as a float array, or (None, message) when it cannot be one."""
    if isinstance(out, (str, bytes, dict, set)) or callable(out):
        return None, f"应返回一个二维数组 (a 2-D array)，实际返回 (got) {type(out).__name__}。"
    arr, exc = call_answer(numeric_array, out)
    if exc is not None:
        return None, f"返回值无法转成数值数组 (cannot be converted to a numeric array)：{type(out).__name__}。"
    if arr is None:
        return None, "返回的是复数 (complex numbers)：权重是实数 (real numbers)，请不要用复数运算。"
    return arr, None


def numeric_array(out):
    """``out`` (numpy, torch or nested lists) as a float array; None for complex values."""
    if hasattr(out, "detach"):  # a torch tensor
        out = out.detach().cpu().numpy()
    arr = np.asarray(out)
    if arr.dtype.kind == "c":
        return None
    return np.asarray(arr, dtype=float)


# --------------------------------------------------------------------------- nb02_spotlight_weights
def spotlight_weights(h, w, cx, cy, radius):
    """Reference: equal weight on every pixel of the disc, 0 elsewhere, sum 1; uniform if the disc is empty."""
    rows = np.arange(h)[:, None]  # [h, 1]  y of each pixel centre
    cols = np.arange(w)[None, :]  # [1, w]  x of each pixel centre
    inside = (cols - cx) ** 2 + (rows - cy) ** 2 <= radius**2  # [h, w]
    if not inside.any():
        return np.full((h, w), 1.0 / (h * w))
    return inside / inside.sum()


def _strict(h, w, cx, cy, radius):
    inside = (np.arange(w)[None, :] - cx) ** 2 + (np.arange(h)[:, None] - cy) ** 2 < radius**2
    return inside / inside.sum() if inside.any() else np.full((h, w), 1.0 / (h * w))


def _half_offset(h, w, cx, cy, radius):
    return spotlight_weights(h, w, cx - 0.5, cy - 0.5, radius)


def _spot_cases():
    """(label, (h, w, cx, cy, radius)) — fixed edge cases, then seeded random ones."""
    yield "非正方形图像 (non-square)，圆周上恰好有像素 (pixels on the circle)", (6, 9, 6, 2, 2)
    yield "半径为 0，圆心正好在像素 (1, 2) 上 (radius 0)", (4, 5, 1, 2, 0)
    yield "圆心在左下角的边上 (centre at the border)", (5, 8, 0, 4, 2.5)
    yield "半径为 0，圆心不在任何像素上：焦点里没有像素 (empty disc)", (4, 4, 1.5, 1.5, 0)
    yield "圆心在图像外面很远 (centre far outside)：焦点里没有像素", (3, 7, -10, 1, 2)
    yield "半径很大，覆盖整幅图 (radius covers everything)", (3, 4, 1, 1, 10)
    yield "1 × 1 的图像", (1, 1, 0, 0, 0)
    rng = np.random.default_rng(2)
    for _ in range(3):
        h, w = (int(v) for v in rng.integers(3, 12, size=2))
        if h == w:
            w += 2
        cx, cy = float(rng.uniform(-1, w)), float(rng.uniform(-1, h))
        yield "随机用例 (random case)", (h, w, round(cx, 2), round(cy, 2), round(float(rng.uniform(0.5, 4)), 2))


def _describe(label, args, expected=None, got=None) -> str:
    h, w, cx, cy, r = args
    text = f"\n测试用例 (test case)：{label}；h = {h}, w = {w}, cx = {cx}, cy = {cy}, radius = {r}。"
    if expected is not None and got is not None and expected.shape == got.shape and expected.size <= 48:
        fmt = lambda a: str(np.round(a, 3).tolist()).replace("nan", "NaN")  # noqa: E731
        text += f"\n期望 (expected)：{fmt(expected)}\n实际 (got)：{fmt(got)}"
    return text


def _spot_diagnose(args, out, expected) -> str:
    h, w, cx, cy, r = args
    in_disc = (np.arange(w)[None, :] - cx) ** 2 + (np.arange(h)[:, None] - cy) ** 2 <= r**2  # [h, w]
    empty = not in_disc.any()
    inside = in_disc if not empty else np.ones_like(in_disc)
    if np.isnan(out).any():
        if empty:
            return ("出现了 NaN (not a number)：焦点里一个像素也没有时，inside.sum() 为 0，0/0 得到 NaN。"
                    "这种情况请返回均匀分布 (uniform) np.full((h, w), 1 / (h * w))。")
        return "出现了 NaN (not a number)：检查是否有 0/0。"
    if (out < -1e-9).any():
        return "权重不能是负数 (weights must be non-negative)。"
    total = float(out.sum())
    if abs(total - 1) > 1e-6:
        if empty and abs(total) < 1e-9:
            return ("焦点里没有像素时你返回了全 0，权重之和为 0 (weights sum to 0)：这时注意力无处可放，"
                    "请返回均匀分布 (uniform)，每个像素 1 / (h * w)。")
        mask = (expected > 0).astype(float)
        if np.allclose(out, mask):
            return (f"权重没有归一化 (weights do not sum to 1)：你返回的是 0/1 掩码 (a 0/1 mask)，总和为 {total:g}。"
                    "注意力是一份固定的预算：再除以焦点内的像素个数。")
        return f"权重没有归一化 (weights do not sum to 1)：你的权重之和为 {total:.4g}，应为 1。"
    variants = [
        (spotlight_weights(h, w, cy, cx, r),
         "x 和 y 对调了 (x and y swapped)：cx 是列号 (column, 沿宽度 w)，cy 是行号 (row, 沿高度 h)；"
         "数组下标是 weights[row, col] = weights[y, x]。"),
        (_strict(h, w, cx, cy, r),
         "圆周上的像素 (pixels exactly on the circle) 也算在焦点内：距离的比较请用 <=，而不是 <。"),
        (_half_offset(h, w, cx, cy, r),
         "坐标约定不对 (coordinate convention)：像素 (行 i, 列 j) 的中心就是 (x = j, y = i)，不要加 0.5。"),
        (spotlight_weights(h, w, cx, cy, r / 2),
         "焦点偏小：radius 是半径 (radius)，不是直径 (diameter)，不要除以 2。"),
        (spotlight_weights(h, w, cx, cy, r * 2),
         "焦点偏大：radius 已经是半径 (radius)，不要乘以 2。"),
    ]
    for candidate, message in variants:
        if candidate.shape == out.shape and np.allclose(out, candidate, atol=1e-6):
            return message
    if inside.any() and not inside.all():
        if np.allclose(out, (~inside) / (~inside).sum(), atol=1e-6):
            return "反了 (inverted)：焦点外的像素 (outside the disc) 得到了权重，焦点内反而是 0。"
        outside_on = out[~inside] > 1e-9
        if outside_on.any() and (out[inside] <= 1e-9).any():
            return ("焦点的位置或大小不对 (wrong pixels in focus)：有的焦点内像素得到 0，有的焦点外像素却有权重。"
                    "检查距离公式 (x - cx)**2 + (y - cy)**2 <= radius**2。")
        if outside_on.any():
            return "焦点外的像素 (outside the disc) 应当得到 0 权重：这是“硬”的聚光灯。"
        if not np.allclose(out[inside], out[inside].mean()):
            return "焦点内的像素 (inside the disc) 应当得到相同的权重 (equal weights)。"
    return "数值不对 (wrong values)：与参考答案不一致。"


@function_answer("spotlight_weights(h, w, cx, cy, radius)", "nb02_spotlight_weights")
def check_spotlight_weights(answer) -> Verdict:
    for n, (label, args) in enumerate(_spot_cases(), start=1):
        expected = spotlight_weights(*args)
        with np.errstate(all="ignore"):  # a NaN is diagnosed below, no need for numpy's warning
            out, exc = call_answer(answer, *args)
        if exc is not None:
            return Verdict(False, f"你的函数抛出了异常 (raised an exception): {exception_text(exc, 200)}"
                                  + _describe(label, args), {"kind": "exception", "case": n})
        if out is None:
            return Verdict(False, f"{NOT_FINISHED}：你的函数返回了 None。请把 `return None` 换成你的权重图。",
                           {"kind": "unfinished"})
        arr, problem = _as_array(out)
        if problem:
            return Verdict(False, problem + _describe(label, args), {"kind": "type", "case": n})
        if arr.shape != expected.shape:
            h, w = args[:2]
            msg = f"输出形状应为 [h, w] = {[h, w]}，实际为 {list(arr.shape)}。"
            if list(arr.shape) == [w, h]:
                msg += "行和列对调了 (transposed)：第一维是高度 h（行，y），第二维是宽度 w（列，x）。"
            return Verdict(False, msg + _describe(label, args), {"kind": "shape", "case": n})
        if np.allclose(arr, expected, atol=1e-6):
            continue
        message = _spot_diagnose(args, arr, expected)
        return Verdict(False, message + _describe(label, args, expected, arr),
                       {"kind": "value", "case": n})
    return Verdict(True, f"全部 {n} 个测试用例通过 (all {n} cases passed)：你的聚光灯是一份总和为 1 的注意力分配。",
                   {"kind": "pass"})


register(Exercise(
    id="nb02_spotlight_weights",
    notebook=_NB,
    title="代码：把聚光灯写成权重图",
    prompt="实现 spotlight_weights(h, w, cx, cy, radius)，返回形状 [h, w] 的 numpy 数组：像素 (行 i, 列 j) 的中心是 "
           "(x = j, y = i)；到圆心 (cx, cy) 的距离 <= radius 的像素在焦点内，它们得到相同的权重，焦点外为 0，"
           "所有权重之和为 1。焦点里一个像素也没有时（例如 radius = 0 且圆心不在像素上），返回均匀分布 1 / (h·w)。",
    solution=spotlight_weights,
    checker=check_spotlight_weights,
    hints=["先用 np.arange(h)[:, None] 和 np.arange(w)[None, :] 得到每个像素的 y（行）和 x（列），广播后形状是 [h, w]。",
           "inside = (x - cx)**2 + (y - cy)**2 <= radius**2 是一个布尔掩码；注意力要加起来等于 1，所以除以 inside.sum()。",
           "一个小例子 (a worked example)：h = 3, w = 4, cx = 1, cy = 1, radius = 1 时，焦点内是像素 (行 1, 列 1) "
           "和它上下左右 4 个像素，共 5 个，各得 1/5 = 0.2，其余为 0。inside.sum() 为 0 时不能除：先判断，再返回均匀分布。"],
))


# --------------------------------------------------------------------------- nb02_egret_share
EGRET_SHARE_RADIUS = 0.05
EGRET_SHARE = 0.3851  # weights[egret].sum() for lake_scene() at EGRET_XY, radius 0.05 (see the test)
_EGRET_AREA = 0.0105  # egret.mean(): the share of the picture the egret covers
_EGRET_SHARE_014 = 0.1110  # the value printed in the notebook for radius 0.14


check_egret_share = number_answer(
    EGRET_SHARE, 0.01,
    unfinished="请填入一个 0 到 1 之间的小数，例如 0.25。",
    passed=f"正确：半径 {EGRET_SHARE_RADIUS} 时白鹭分到约 {EGRET_SHARE:.1%} 的注意力，"
           f"而它只占画面约 {_EGRET_AREA:.1%}——焦点越小，注意力越集中。",
    traps=[percent(0.01, "你填的像是百分数 (a percentage) {value:g}%：请写成 0 到 1 之间的小数 (a fraction)。", "percent"),
           near(_EGRET_SHARE_014, 0.005, "这是半径 0.14 时的份额（笔记本里打印的那个数）。请把半径换成 0.05 重新计算。",
                "radius"),
           near(_EGRET_AREA, 0.002, "这是白鹭占画面的面积比例 (area share)，与焦点无关；要的是 weights[egret].sum()。",
                "area"),
           near(1 - EGRET_SHARE, 0.01, "你算的是白鹭以外 (everything but the egret) 的份额：用 weights[egret].sum()，"
                                       "不要取反。", "complement"),
           outside(0, 1, "份额 (a share) 必须在 0 和 1 之间，你填的是 {value:g}。")],
    wrong="数值不对：{value:g} {side}（允许误差 ±0.01）。",
)


register(Exercise(
    id="nb02_egret_share",
    notebook=_NB,
    title="读数：焦点缩小后，白鹭分到多少注意力？",
    prompt=f"第 2 节用半径 0.14 算出了白鹭分到的权重份额。把半径改成 {EGRET_SHARE_RADIUS}（圆心仍在 EGRET_XY），"
           "用 helpers.viz.teaching.spotlight_weights 重新计算 weights[egret].sum()，填入一个 0 到 1 之间的小数（误差 ±0.01）。",
    solution=EGRET_SHARE,
    checker=check_egret_share,
    hints=["复制第 2 节计算份额的那个单元格，只改半径这一个参数。",
           f"weights = spotlight_weights(scene.shape, EGRET_XY[0], EGRET_XY[1], {EGRET_SHARE_RADIUS})；"
           "egret = scene.min(axis=2) > 0.85。",
           "把布尔掩码 egret 选中的权重加起来：weights[egret].sum()；结果是 0 到 1 之间的小数，不要乘 100。"],
))


# --------------------------------------------------------------------------- nb02_hard_gradient
check_hard_gradient = number_answer(
    lambda: egret_share_slope(HARD), 1e-6,
    unfinished="请填入你预测的变化率（一个数），例如 0.5。",
    passed="预测正确：硬聚光灯的份额对圆心位置的导数是 0，挪一点点什么都不变。",
    wrong="和揭晓的结果不同：{value:g} {side}。想想圆心挪动千分之一个像素时，有没有像素跨过圈的边界。",
)


register(LazyExercise(
    id="nb02_hard_gradient",
    notebook=_NB,
    title="预测：硬聚光灯挪一点点，白鹭的份额变多少？",
    prompt="第 2 节的聚光灯半径 0.14。把它的边缘变成“硬”的（圈里的像素权重相同，圈外为 0），圆心放在白鹭上。"
           "把圆心向右挪一点点，白鹭分到的份额对圆心横坐标 x 的变化率（导数）是多少？填一个数，再运行揭晓的单元格。",
    solve=lambda: egret_share_slope(HARD),
    checker=check_hard_gradient,
    hints=["硬聚光灯的权重只有两种值：圈里一样大，圈外为 0。",
           "圆心挪动远小于一个像素时，有哪个像素从圈外进到圈里吗？",
           "份额不变，变化率就是 0；份额变了，变化率才是一个正数或负数。运行揭晓的单元格核对。"],
))


GRADIENT_REASONS = {
    "A": "0：硬的权重只有“在圈里 / 不在圈里”，挪一点点没有像素跨过边界，份额不变；梯度说不出该往哪里挪，"
         "所以 Mnih 等人（2014）用强化学习训练“看哪里”，而软注意力（Bahdanau 等 2014）可以直接反向传播。",
    "B": "一个正数：往白鹭的方向挪，份额就变大，梯度会把焦点推向白鹭。",
    "C": "一个负数：圆心已经在白鹭上，往哪边挪份额都变小。",
}


def _gradient_reason() -> str:
    slope = egret_share_slope(HARD)
    return "A" if slope == 0 else ("B" if slope > 0 else "C")


register(LazyExercise(
    id="nb02_hard_gradient_why",
    notebook=_NB,
    title="解释：硬聚光灯的导数为什么是这样？",
    prompt="选出与揭晓的结果相符的解释：" + "；".join(f"{k}. {v}" for k, v in GRADIENT_REASONS.items()),
    solve=_gradient_reason,
    checker=reason_answer(_gradient_reason, GRADIENT_REASONS, why_not={
        "B": "揭晓的硬聚光灯导数是 0：份额会随圆心平滑变化的是软聚光灯。",
        "C": "揭晓的硬聚光灯导数是 0，不是负数。",
        "A": "揭晓的导数不是 0：看看揭晓单元格打印的两个数。"}),
    hints=["对照揭晓单元格：硬的和软的聚光灯，导数各是多少？",
           "导数为 0 意味着梯度下降不知道该往哪边挪圆心。",
           "Mnih 等（2014）的模型每一步选一块区域看，这个选择就是一个“硬”的决定。"],
))
