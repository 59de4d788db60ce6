"""Exercises of notebook 04_framework (9.10.3 part 1, Fig. 9-24): retrieval with Query, Keys and Values.

* ``nb04_blend_range``     (prediction, then a run) where the soft result lies: each feature between the
                           videos' minimum and maximum, in general equal to no video (a convex combination)
* ``nb04_nudge``           (prediction, then a run) one score + 0.01: the hard result does not move, the
                           soft one moves a little (hard attention is not differentiable, soft attention is)
* ``nb04_predict_video``   (prediction) which video the query “湖边 小狗 游泳” returns as τ -> 0
* ``nb04_tie_alpha``       (reading) α of 《钢琴入门教程》 for the query “入门” at τ = 0.01 (a tie)
"""

from __future__ import annotations

import numpy as np

from helpers.exercises import Exercise, register
from helpers.exercises.engine import Verdict
from helpers.exercises.kinds import choice_answer, near, number_answer, percent, reason_answer

_NB = "04_framework"
_N_VIDEOS = 6
_TITLES = {"可爱猫咪学钢琴": 0, "小狗学游泳": 1, "湖边白鹭捕鱼": 2, "注意力入门教程": 3, "机器翻译实战": 4, "钢琴入门教程": 5}


# --------------------------------------------------------------------------- nb04_blend_range
BLEND_OPTIONS = {
    "A": "等于 α 最大的那个视频的特征：软注意力返回的是最相关的视频。",
    "B": "每一维都落在六个视频这一维的最小值和最大值之间，一般不等于任何一个视频：α 非负、和为 1，结果是各个值的加权平均。",
    "C": "有的维可能比六个视频这一维的最大值还大：几个视频加在一起，数值会累加。",
}

register(Exercise(
    id="nb04_blend_range",
    notebook=_NB,
    title="先预测，再运行：加权混合落在哪里？",
    prompt="查询“湖边 教程”，τ = 1 的软注意力返回一个内容特征向量。它和六个视频的内容特征相比是什么样？"
           + "；".join(f"{k}. {v}" for k, v in BLEND_OPTIONS.items()),
    solution="B",
    checker=reason_answer("B", BLEND_OPTIONS, why_not={
        "A": "只有 α 是 one-hot（硬注意力，或 τ → 0）时才会这样；τ = 1 时每个视频都分到一些权重。",
        "C": "α 的和是 1：加权平均不会超出最小值和最大值的范围，只有权重和大于 1 时才会累加。"}),
    hints=["α 的每一项都不小于 0，总和等于 1。",
           "只看一维：两个数 a ≤ b 的加权平均 αa + (1−α)b 可能比 b 大吗？",
           "揭晓的单元格打印每一维的最小值、最大值和混合结果。"],
))


# --------------------------------------------------------------------------- nb04_nudge
NUDGE_OPTIONS = {
    "A": "两者都变一点点：硬注意力和软注意力一样光滑。",
    "B": "硬注意力的结果完全不变（除非最高分换了人，那时整个跳到另一个视频）；软注意力的结果跟着变一点点，变化量与 0.01 成正比。",
    "C": "两者都完全不变：0.01 太小了，影响不到 softmax。",
}

register(Exercise(
    id="nb04_nudge",
    notebook=_NB,
    title="先预测，再运行：把一个分数加 0.01",
    prompt="把《钢琴入门教程》的相似度 s 加 0.01，其余不变。硬注意力和软注意力（τ = 1）的返回结果各会怎样？"
           + "；".join(f"{k}. {v}" for k, v in NUDGE_OPTIONS.items()),
    solution="B",
    checker=reason_answer("B", NUDGE_OPTIONS, why_not={
        "A": "硬注意力只看谁是最高分：一个分数稍微变一点，最高分是谁通常不会变，结果也就不变。",
        "C": "softmax 是光滑的函数：任何一个分数变一点，所有 α 都会跟着变一点，结果也会变一点。"}),
    hints=["硬注意力的结果只取决于 arg max：谁是最高分。",
           "软注意力的 α 是 softmax(s)：它对每个 s_i 都有不为 0 的导数。",
           "这就是第 3 节说的：硬注意力不可导，软注意力可以用梯度训练。"],
))


# --------------------------------------------------------------------------- nb04_predict_video
PREDICT_QUERY = "湖边 小狗 游泳"


def _video_number(answer) -> Verdict | None:
    """A video's number instead of its title."""
    if isinstance(answer, (int, np.integer)) and not isinstance(answer, bool) and 0 <= int(answer) < _N_VIDEOS:
        title = next(t for t, i in _TITLES.items() if i == int(answer))
        return Verdict(False, f"请填视频的标题（字符串），而不是编号：编号 {int(answer)} 是《{title}》。", {"kind": "type"})
    return None


_NO_MIX = "τ → 0 时 α 不再是混合：它趋向 one-hot，只剩一个视频。"
check_predict_video = choice_answer(
    "小狗学游泳",
    unfinished="请填入一个视频标题（字符串），例如 '机器翻译实战'。",
    example="，例如 '机器翻译实战'",
    before=_video_number,
    passed="正确：“小狗 游泳”两个词都命中《小狗学游泳》（s = 2），“湖边”只命中《湖边白鹭捕鱼》（s = 1）。"
           "τ → 0 时 softmax 变成 one-hot，软注意力就成了硬注意力。",
    wrong={"湖边白鹭捕鱼": "不对：《湖边白鹭捕鱼》只和查询共有一个词“湖边”（s = 1）。数一数每个标题与查询共有几个词。",
           "加权混合": _NO_MIX, "所有视频": _NO_MIX, "混合": _NO_MIX},
    options=_TITLES,
    wrong_default=f"不对：《{{norm}}》和查询“{PREDICT_QUERY}”没有共有的词（s = 0）。",
    other=f"不对：{{answer!r}} 不是网站上的视频标题。可选：{'、'.join(_TITLES)}。",
    normalise=lambda text: "".join(text.split()).strip("《》\"'“”"),
)


register(Exercise(
    id="nb04_predict_video",
    notebook=_NB,
    title="预测：温度趋于 0 时返回哪个视频？",
    prompt=f"先不运行代码，预测：查询“{PREDICT_QUERY}”，温度 τ → 0 时，软注意力的结果几乎只来自哪一个视频？"
           "填视频标题（字符串），然后用 retrieve(查询, temperature=0.01) 或 RetrievalToy 验证。",
    solution="小狗学游泳",
    checker=check_predict_video,
    hints=["τ → 0 时 softmax(s / τ) 趋向 one-hot：只剩相似度 s 最大的那个视频。",
           "相似度 = 标题和查询共有的词的个数。分别数一数每个标题里有几个“湖边”“小狗”“游泳”。",
           "数一个给你看：《湖边白鹭捕鱼》和查询共有“湖边”1 个词 (s = 1)。把其余五个标题也数一遍，s 最大的那个标题就是要填的。"],
))


# --------------------------------------------------------------------------- nb04_tie_alpha
TIE_QUERY, TIE_TAU, TIE_TITLE = "入门", 0.01, "钢琴入门教程"
TIE_ALPHA = 0.5  # two titles share the top score 1: softmax splits the weight evenly


check_tie_alpha = number_answer(
    TIE_ALPHA, 0.01,
    unfinished="请填入一个 0 到 1 之间的数，例如 0.2。",
    vector_tip="（你可能填了整个 α 向量：只填《钢琴入门教程》那一项。）",
    passed="正确：《注意力入门教程》和《钢琴入门教程》并列最高分，τ 再小，softmax 也只能把权重平分，"
           "各得 0.5；硬注意力却只能选第一个——这就是并列时两者的区别。",
    traps=[near(1, 0.01, "不对：τ → 0 时 α 趋向 one-hot 的前提是最高分只有一个。这里有两个标题并列最高分。", "one_hot"),
           near(0, 0.01, "0 是硬注意力的结果（并列时取第一个，即《注意力入门教程》）。软注意力在并列时怎样分配？", "hard"),
           percent(0.01, "你填的像是百分数 (a percentage)：请写成 0 到 1 之间的小数。"),
           near(1 / _N_VIDEOS, 0.01, "这是均匀分布 (uniform) 的权重，对应 τ 很大的情况；这里 τ = 0.01 很小。")],
    wrong="数值不对：{value:g} {side}（允许误差 ±0.01）。",
)


register(Exercise(
    id="nb04_tie_alpha",
    notebook=_NB,
    title="读数：并列最高分时的软注意力",
    prompt=f"查询“{TIE_QUERY}”，温度 τ = {TIE_TAU}（软注意力）。《{TIE_TITLE}》得到的权重 α 是多少？"
           "填一个 0 到 1 之间的数（误差 ±0.01），可以用 retrieve 计算，也可以直接推理。",
    solution=TIE_ALPHA,
    checker=check_tie_alpha,
    hints=[f"先看相似度：retrieve('{TIE_QUERY}').scores。有几个标题得到了最高分？",
           "τ 越小，不是最高分的标题权重越接近 0；但并列最高分的标题之间，exp(s / τ) 完全相同。",
           "两个标题并列最高分 s：它们的 exp(s / τ) 相同，其余标题的 exp 与之相比几乎为 0，"
           f"所以 α ≈ exp(s/τ) / (exp(s/τ) + exp(s/τ))，化简即可。验证：retrieve('{TIE_QUERY}', temperature={TIE_TAU}).alpha[5]。"],
))
