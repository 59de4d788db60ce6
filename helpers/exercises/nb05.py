"""Reading exercises of notebook 05_computation (Fig. 9-25, Eq. (9-37)–(9-40)).

The seven code exercises of notebook 05 live in ``helpers.exercises.nb05_code``; these two are not code:

* ``nb05_context_shape``  predict the shape of the context vectors of Eq. (9-38) for a whole batch
* ``nb05_padding_weight`` read off how much attention the padding gets when the mask is left out
                          (the reference is computed lazily from the untrained luong-general model)
"""

from __future__ import annotations

import math
import re
from functools import cache

from helpers.exercises import Exercise, register
from helpers.exercises.engine import NOT_FINISHED, Verdict
from helpers.exercises.kinds import near, number_answer, outside

NB = "05_computation"

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


# --------------------------------------------------------------------------- padding weight
PADDING_SENTENCES = ("i am a student .", "she reads books in the library every day .")
PADDING_SEED = 0  # make_model("luong-general", seed=0): the model at the start of training
BOS = 1


@cache
def padding_weights() -> tuple[float, float, int]:
    """(total weight on the padding of sentence 0 without the mask, the largest single padding weight,
    number of padding positions) at the first decoding step of the untrained luong-general model
    (seed ``PADDING_SEED``) on ``PADDING_SENTENCES`` — the numbers of notebook 05, section 9."""
    import torch

    from helpers.corpus import tokenize_en
    from helpers.decode import pad_sequences
    from helpers.decoders import top_layer
    from helpers.train import make_model

    model = make_model("luong-general", seed=PADDING_SEED)
    model.eval()
    ids = [model.src_vocab.encode(tokenize_en(s)) for s in PADDING_SENTENCES]
    src, lens = pad_sequences(ids)  # [2, S], [2]
    with torch.no_grad():
        state = model.start(src, lens)
        _, _, after = model.step(torch.full((len(ids),), BOS, dtype=torch.long), state)
        h_1 = top_layer(after.hidden)  # [2, H]
        weights = model.decoder.attention(h_1, state.encoder_outputs).weights  # [2, S], no mask
    pad = weights[0, int(lens[0]):]
    return float(pad.sum()), float(pad.max()), int(pad.numel())


class ModelNumber:
    """A reference number computed from a model on first use: ``float(x)`` computes it."""

    def __init__(self, compute):
        self._compute = compute

    def __float__(self) -> float:
        return float(self._compute())

    def __repr__(self) -> str:
        return f"{float(self):.4f}"


def _single_padding_weight() -> float | None:
    """The weight of one padding position, when there are several (else the trap is skipped)."""
    _, single, count = padding_weights()
    return single if count > 1 else None


check_padding_weight = number_answer(
    lambda: padding_weights()[0], 0.01,
    unfinished="请填入一个 0 到 1 之间的数。",
    passed=lambda value, expected, side: f"正确：不加掩码时，{padding_weights()[2]} 个填充位置一共分走了 "
                                         f"{expected:.3f} 的注意力权重。",
    traps=[near(0.0, 0.005, "数值不对：{value:g}。0 是加了掩码 (with the mask) 之后的值；题目问的是不加掩码时填充位置分到多少。"),
           near(lambda: 1.0 - padding_weights()[0], 0.01,
                "数值不对：{value:g}。这是真实词 (real tokens) 分到的权重之和；题目问的是填充位置 (padding) 的。"),
           near(_single_padding_weight, 0.01,
                lambda value, expected, side: f"数值不对：{value:g}。这只是其中一个填充位置的权重；一共有 "
                                              f"{padding_weights()[2]} 个填充位置，请把它们加起来。"),
           outside(0.0, 1.0, "数值不对：{value:g}。注意力权重之和在 0 到 1 之间。")],
    wrong="数值不对：{value:g}。{side}。",
)


register(Exercise(
    id="nb05_padding_weight",
    notebook=NB,
    title="不加掩码时填充位置分到的权重 (padding weight)",
    prompt=f"第 9 节把两个句子 {list(PADDING_SENTENCES)} 补齐成一批，用训练刚开始的模型 "
           f"make_model('luong-general', seed={PADDING_SEED}) 算第 1 步解码的注意力权重。"
           "不加掩码 (without the mask) 时，第一个（较短的）句子的所有填充位置一共分到了多少权重？"
           "从表格或图中读出，填一个数（精确到 0.01）。",
    solution=ModelNumber(lambda: padding_weights()[0]),
    checker=check_padding_weight,
    hints=["看第 9 节“不加掩码”那一行：短句在真实词之后还有几个 <pad> 位置。",
           "把这些 <pad> 位置的权重加起来（不是只看其中一个）。",
           "也可以用代码：weights_no_mask[0, lens[0]:].sum()。"],
))
