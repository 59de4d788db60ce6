"""Exercises of notebook 02_origins (9.10.1, Fig. 9-23): attention as a share of a fixed budget.

* ``nb02_narrow_soft``       (concept, then a run) is a narrow soft spotlight hard attention? No: the
                             width of the focus is not what makes attention hard (selecting one place is)
* ``nb02_egret_share``       (reading) the share of the total weight that falls on the egret when the
                             spotlight of ``helpers.viz.teaching.spotlight_weights`` has radius 0.05
* ``nb02_hard_gradient``     (prediction, then a run) the derivative of the egret's share with respect to
                             the centre of a hard spotlight (``nb02_hard_gradient_why``: the reason,
                             fixed by reasoning: a disc with equal weights does not change when no pixel
                             crosses its edge)
"""

from __future__ import annotations

import numpy as np

from helpers.exercises import Exercise, LazyExercise, register
from helpers.exercises.kinds import (
    choice_answer,
    near,
    number_answer,
    outside,
    percent,
    plain,
    reason_answer,
)
from helpers.exercises.reveals import HARD, NARROW, RADIUS, SOFT, STEP, egret_share_slope  # noqa: F401 (re-exported)

_NB = "02_origins"


def numeric_array(out):
    """``out`` (numpy, torch or nested lists) as a float array; None for complex values."""
    if hasattr(out, "detach"):  # a torch tensor
        out = out.detach().cpu().numpy()
    arr = np.asarray(out)
    if arr.dtype.kind == "c":
        return None
    return np.asarray(arr, dtype=float)


# --------------------------------------------------------------------------- nb02_narrow_soft
_SOFT_WORDS = {"软", "软的", "软注意力", "soft", "softattention", "仍是软注意力", "还是软注意力"}
_HARD_WORDS = {"硬", "硬的", "硬注意力", "hard", "hardattention"}


def _soft_or_hard(text: str) -> str:
    norm = plain(text).strip("。.!！?？").replace(" ", "")
    return "软" if norm in _SOFT_WORDS else ("硬" if norm in _HARD_WORDS else norm)


check_narrow_soft = choice_answer(
    "软",
    unfinished="请填入 '软' 或 '硬'。",
    example="，例如 '软'",
    normalise=_soft_or_hard,
    passed="正确：焦点再窄，权重仍由一个光滑的函数给出，白鹭的份额随圆心连续变化，可以求导，这仍是软注意力。"
           "硬注意力是每一步只选出一个位置（按权重抽取或取最大），第 04 本会把两者并排算一遍。",
    wrong={"硬": "焦点窄只说明权重集中，不说明它“只选一个”：权重仍由光滑的函数算出，挪动圆心，份额连续变化，"
                 "梯度照样存在。硬注意力是每一步只选出一个位置（见第 04 本）。"},
    options=["软", "硬"],
    other="请只填 '软' 或 '硬'，你填的是 {answer!r}。",
)


register(Exercise(
    id="nb02_narrow_soft",
    notebook=_NB,
    title="概念：很窄的软聚光灯，是软注意力还是硬注意力？",
    prompt=f"把第 2 节的聚光灯半径从 {RADIUS} 缩到 {NARROW}，边缘仍是软的（softness={SOFT}），"
           "白鹭分到的份额更集中。它算软注意力还是硬注意力？填 '软' 或 '硬'，再运行揭晓的单元格。",
    solution="软",
    checker=check_narrow_soft,
    hints=["软和硬的区别不在焦点大小，而在权重是怎样得到的：是一组连续的权重，还是只选出一个位置？",
           "把圆心挪一点点，窄的软聚光灯给白鹭的份额会不会跟着连续变化？",
           "能对圆心求导（份额连续变化）就是软的；每一步只选出一个位置、选择是离散的，才是硬的。"],
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
    passed="预测正确：硬边缘聚光灯的份额对圆心位置的导数是 0，挪一点点什么都不变。",
    wrong="和揭晓的结果不同：{value:g} {side}。想想圆心挪动千分之一个像素时，有没有像素跨过圈的边界。",
)


register(LazyExercise(
    id="nb02_hard_gradient",
    notebook=_NB,
    title="预测：硬边缘聚光灯挪一点点，白鹭的份额变多少？",
    prompt="第 2 节的聚光灯半径 0.14。把它的边缘变成“硬”的（圈里的像素权重相同，圈外为 0），圆心放在白鹭上。"
           "把圆心向右挪一点点，白鹭分到的份额对圆心横坐标 x 的变化率（导数）是多少？填一个数，再运行揭晓的单元格。",
    solve=lambda: egret_share_slope(HARD),
    checker=check_hard_gradient,
    hints=["硬边缘聚光灯的权重只有两种值：圈里一样大，圈外为 0。",
           "圆心挪动远小于一个像素时，有哪个像素从圈外进到圈里吗？",
           "份额不变，变化率就是 0；份额变了，变化率才是一个正数或负数。运行揭晓的单元格核对。"],
))


GRADIENT_REASONS = {
    "A": "0：硬的权重只有“在圈里 / 不在圈里”，挪一点点没有像素跨过边界，份额不变；梯度说不出该往哪里挪，"
         "所以 Mnih 等人（2014）用强化学习训练“看哪里”，而软注意力（Bahdanau 等 2014）可以直接反向传播。",
    "B": "一个正数：往白鹭的方向挪，份额就变大，梯度会把焦点推向白鹭。",
    "C": "一个负数：圆心已经在白鹭上，往哪边挪份额都变小。",
}


# Decided by reasoning, not by the outcome: with equal weights inside a disc and none outside, a move far
# smaller than a pixel moves no pixel across the edge, so the share cannot change.
GRADIENT_REASON = "A"


register(LazyExercise(
    id="nb02_hard_gradient_why",
    notebook=_NB,
    title="解释：硬边缘聚光灯的导数为什么是这样？",
    prompt="选出推理正确的解释：" + "；".join(f"{k}. {v}" for k, v in GRADIENT_REASONS.items()),
    solve=lambda: GRADIENT_REASON,
    checker=reason_answer(GRADIENT_REASON, GRADIENT_REASONS, why_not={
        "B": "硬边缘聚光灯的权重只有“圈里一样大、圈外为 0”：挪动远小于一个像素时，没有像素跨过边界，份额不变，"
             "导数是 0。份额随圆心平滑变化的是软聚光灯。",
        "C": "硬边缘聚光灯挪一点点，没有像素跨过边界，份额不变，导数是 0，不是负数。"}),
    hints=["对照揭晓单元格：硬的和软的聚光灯，导数各是多少？",
           "导数为 0 意味着梯度下降不知道该往哪边挪圆心。",
           "Mnih 等（2014）的模型每一步选一块区域看，这个选择就是一个“硬”的决定。"],
))
