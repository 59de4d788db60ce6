"""Exercises of notebook 05a_computation_steps (Fig. 9-25, Eq. (9-37)–(9-40)): the table of all of them.

* two code exercises, one piece each (checkers in ``helpers.exercises.nb05_code``): ``masked_softmax``
  (Eq. 9-37 with a padding mask, fully masked rows included) and ``context_vector`` (Eq. 9-38); their
  prompts name the equation and the meaning of each shape, never the expression
* ``luong_step``: a whole Luong decoding step with input feeding (checker in ``helpers.exercises.nb05_steps``);
  the score (general, Eq. 9-40) and the attention vector (Eq. 9-39) are written inside it
* ``nb05_context_shape``  predict the shape of the context vectors of Eq. (9-38) for a whole batch
* ``nb05_saturation``     (prediction, then a run) the largest α of a freshly initialised luong-general without
                         Eq. (E1): near 1/S, because its scores are far from unit variance (the notebook has
                         already measured unit-variance vectors; reveal: ``helpers.exercises.reveals.init_peak_alpha``)

The ids keep the ``nb05_`` prefix of the notebook before the split (the grader's columns use them).
"""

from __future__ import annotations

import math
import re

from helpers.exercises import Exercise, nb05_code, nb05_steps, register, register_code
from helpers.exercises.engine import NOT_FINISHED, Verdict
from helpers.exercises.kinds import reason_answer

NB = "05a_computation_steps"

# --------------------------------------------------------------------------- code exercises
_CODE = [
    ("masked_softmax", nb05_code, "带掩码的 softmax (masked softmax)",
     "实现 masked_softmax(scores, mask)，即式 (9-37) 的归一化加上填充掩码。scores [..., S]：每个目标位置对 S 个源位置的"
     "打分；mask 与 scores 同形状，bool，True 表示可以关注。返回注意力权重 [..., S]：被遮住的位置不分到权重，"
     "其余位置构成一份完整的分配；整行都被遮住时返回全 0（不能出现 NaN）。",
     ["softmax 在最后一维 (dim=-1) 上做：每个目标位置在所有源位置上的权重之和为 1。",
      "先把被遮住的分数设为 -inf：scores.masked_fill(~mask, float('-inf'))，再 torch.softmax(..., dim=-1)。",
      "整行都是 -inf 时 softmax 得到 NaN；最后再 weights.masked_fill(~mask, 0.0)，被遮住的位置（包括整行）都变成 0"
      "（训练时更稳妥的是填 torch.finfo(scores.dtype).min 而不是 -inf，见练习上方的注意）。"]),
    ("context_vector", nb05_code, "上下文向量 (context vector)",
     "实现 context_vector(weights, values)：式 (9-38) 的上下文向量。weights [B, T, S] 是注意力权重 α"
     "（每行之和为 1，或整行为 0），values [B, S, Dv] 是编码器状态 h̄_s。返回每个目标位置的上下文向量 c_t，形状 [B, T, Dv]。",
     ["上下文向量是值 (values) 的加权和，权重是注意力权重 α。",
      "对源位置 s 求和：一个批量矩阵乘法就够了，weights @ values。",
      "不要再做 softmax，也不要除以 S：权重已经归一化了。"]),
    ("luong_step", nb05_steps, "组装一步 Luong 解码（输入馈送）(one Luong step with input feeding)",
     "实现 luong_step(emb, h_tilde_prev, h_prev, enc, mask, cell, W_a, W_c)：带输入馈送 (input feeding) 的一步 Luong "
     "解码，用 general 打分。emb [B, E] 是上一个输出词 y_{t-1} 的词向量；h_tilde_prev [B, H] 是上一步的注意力向量 h̃_{t-1}；"
     "h_prev [B, H] 是上一步的解码器状态；enc [B, S, H] 是编码器状态 h̄_s；mask [B, S]（True 表示可以关注）；"
     "cell(x, h) 是 RNN 单元，x 的形状是 [B, E + H]；W_a [H, H] 是 general 打分的参数，W_c [H, 2H] 是式 (9-39) 的参数。"
     "返回元组 (h_t, h̃_t, α_t)：新状态 [B, H]、注意力向量 [B, H]、注意力权重 [B, S]。可以调用你在练习 1、2 里写好的函数；"
     "打分（式 (9-40) 的 general 一行）和注意力向量（式 (9-39)）直接写在这一步里。",
     ["输入馈送 (input feeding)：上一步的 h̃_{t-1} 和词向量一起进 RNN，cell 的输入是两者的拼接，词向量在前。",
      "Luong 的顺序：先用 RNN 得到 h_t，再拿 h_t 作查询 (query) 打分、做带掩码的 softmax、对 enc 加权求和得到 c_t，最后由式 (9-39) 得到 h̃_t。",
      "形状走一遍 (worked)：B = 1, E = 3, H = 4, S = 5：x [1, 7] → h_t [1, 4] → 分数 [1, 5] → α_t [1, 5] → "
      "c_t [1, 4] → [c_t; h_t] [1, 8] → h̃_t [1, 4]。一次一个查询时，α_t 用 unsqueeze(1) 变成 [1, 1, 5] 再与 enc 相乘。"]),
]  # fmt: skip

register_code(NB, _CODE)


# --------------------------------------------------------------------------- context shape
CONTEXT_SHAPE = (2, 5, 128)  # B = 2, T = 5, H = 128 (S = 7 is summed away)
_SHAPE_MISTAKES = {
    (2, 5, 7): "这是注意力权重 α 的形状 [B, T, S]。上下文向量是对源位置 s 加权求和 (sum over s) 之后的结果，"
               "S 这一维被求和消掉了，最后一维是隐含维度 H。",
    (2, 7, 128): "这是编码器隐含状态 h̄ 的形状 [B, S, H]。上下文向量是每个目标位置 (target position) 一个，"
                 "所以中间一维应是 T 而不是 S。",
    (2, 128): "这是单独一步 (one decoding step) 的形状 [B, H]。题目要的是所有 T 个目标位置一起算。",
    (5, 2, 128): "维度顺序不对 (wrong order)：本项目约定批次维在最前，形状写作 [B, T, H]。",
    (2, 5, 256): "256 = 2H 是拼接 [c_t; h_t] 之后的长度（式 (9-39) 的输入），上下文向量 c_t 本身只有 H 维。",
    (2, 5, 7, 128): "α 与 h̄ 相乘之后还要对 s 求和 (sum over s)，S 这一维不会留下来。",
}


def _as_shape(answer):
    """A tuple of ints from a tuple/list/torch.Size or a string such as "[2, 5, 128]"; None if impossible."""
    if isinstance(answer, str):
        numbers = re.findall(r"-?\d+", answer)
        return tuple(int(n) for n in numbers) if numbers else None
    try:
        items = list(answer)
    except TypeError:
        return None
    shape = []
    for item in items:
        if isinstance(item, bool):
            return None
        try:
            value = float(item)
        except Exception:  # noqa: BLE001 - whatever the student passes
            return None
        if not math.isfinite(value) or value != int(value):
            return None
        shape.append(int(value))
    return tuple(shape)


def check_context_shape(answer) -> Verdict:
    if answer is None:
        return Verdict(False, f"{NOT_FINISHED}：请填入一个形状，例如 (1, 2, 3)。", {"kind": "unfinished"})
    shape = _as_shape(answer)
    if shape is None:
        return Verdict(False, f"请填入一个由整数组成的元组 (a tuple of ints)，例如 (1, 2, 3)；"
                              f"收到的是 (got) {type(answer).__name__}。", {"kind": "type"})
    if shape == CONTEXT_SHAPE:
        return Verdict(True, f"形状正确：{list(shape)} = [B, T, H]。", {"kind": "pass"})
    tip = _SHAPE_MISTAKES.get(shape, "提示：先写出 α 的形状 [B, T, S] 和 h̄ 的形状 [B, S, H]，"
                                      "再想一想矩阵乘法 α @ h̄ 消掉了哪一维。")
    return Verdict(False, f"形状不对 (wrong shape)：{list(shape)}。{tip}", {"kind": "value", "got": list(shape)})


register(Exercise(
    id="nb05_context_shape",
    notebook=NB,
    title="预测上下文向量的形状 (context vector shape)",
    prompt="一批 B = 2 个句子，源句补齐后长 S = 7，目标端有 T = 5 个位置，隐含维度 H = 128。"
           "用式 (9-38) 一次算出所有目标位置的上下文向量 c，它的形状是什么？填一个元组，例如 (1, 2, 3)。",
    solution=CONTEXT_SHAPE,
    checker=check_context_shape,
    hints=["α 的形状是 [B, T, S]，编码器状态 h̄ 的形状是 [B, S, H]。",
           "c = α @ h̄ 是批量矩阵乘法：[B, T, S] @ [B, S, H]，相乘的那一维 S 被求和消掉。",
           "所以 c 的形状是 [B, T, H]，代入数字即可。"],
))


# --------------------------------------------------------------------------- nb05_saturation
SATURATION_OPTIONS = {
    "A": "约为 1/S：刚初始化时状态经过 tanh，每一维都是小数，W_a 的初始值也很小，分数的方差远小于 1，分数之间差距很小，"
         "softmax 接近均匀分布；(E1) 要防的饱和，要等训练把状态和参数变大以后才会出现。",
    "B": "接近 1：第 8 节测过，128 维点积的标准差约为 11，最大的分数比第二大的高出好几个单位，softmax 几乎成了 one-hot。",
    "C": "正好 0.5：softmax 总是把一半的权重给最大的那一项。",
}

register(Exercise(
    id="nb05_saturation",
    notebook=NB,
    title="先预测，再运行：刚初始化的模型，不除以 √H 会饱和吗？",
    prompt="一个刚初始化、还没训练的 luong-general 模型（H = 128，双向编码器，不除以 √H），翻译 S = 12 个词的句子，"
           "第一步 softmax 后最大的 α 平均是多少？"
           + "；".join(f"{k}. {v}" for k, v in SATURATION_OPTIONS.items()),
    solution="A",
    checker=reason_answer("A", SATURATION_OPTIONS, why_not={
        "B": "标准差约为 √H 的前提是每个分量的方差为 1。刚初始化的模型，状态经过 tanh、W_a 的初始值很小，"
             "分数的方差远小于 1，这个前提不成立。",
        "C": "softmax 给最大项的权重取决于分数之间的差距：差距越大越接近 1，差距为 0 时是 1/S。"}),
    hints=["第 8 节的 11.43 有一个前提：每个分量独立、方差为 1。刚初始化的模型满足这个前提吗？",
           "GRU 的状态经过 tanh，每一维在 −1 和 1 之间；PyTorch 的默认初始化让 W_a 的每个元素都很小。",
           "分数的差距小，softmax 就接近均匀分布：12 个键时是 1/12 ≈ 0.08。"],
))
