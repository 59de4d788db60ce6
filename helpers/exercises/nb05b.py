"""Exercises of notebook 05b_computation_extras (padding masks, the Bahdanau path, local attention).

* ``bahdanau_step``: a whole Bahdanau decoding step (checker in ``helpers.exercises.nb05_steps``)
* ``nb05_padding_weight``: predict, then run: how much attention the padding of the shorter sentence gets
  at the first step of the untrained luong-general model when the mask is left out, and why. The answer
  is a pair (prediction, reason letter); the reference is computed lazily from the untrained model, and
  no cell of the notebook prints it before the exercise.

The ids keep the ``nb05_`` prefix of the notebook before the split (the grader's columns use them).
"""

from __future__ import annotations

from functools import cache

from helpers.exercises import LazyExercise, nb05_steps, register, register_code
from helpers.exercises.kinds import choice_answer, near, number_answer, outside, predict_and_explain

NB = "05b_computation_extras"

# --------------------------------------------------------------------------- code exercise
_CODE = [
    ("bahdanau_step", nb05_steps, "组装一步 Bahdanau 解码 (one Bahdanau step)",
     "实现 bahdanau_step(emb, s_prev, enc, mask, cell, W_q, W_k, v_a)：一步 Bahdanau 解码，用加法形式打分。"
     "emb [B, E] 是上一个输出词 y_{t-1} 的词向量；s_prev [B, H] 是上一步的解码器状态 s_{t-1}；enc [B, S, Dk] 是编码器的"
     "注解 (annotations) h_j（双向编码器两个方向拼接而成，Dk 可以不等于 H）；mask [B, S]（True 表示可以关注）；"
     "cell(x, s) 是 RNN 单元，x 的形状是 [B, E + Dk]；W_q [A, H]、W_k [A, Dk]、v_a [A] 是加法打分的参数。"
     "返回元组 (s_t, c_t, α_t)：新状态 [B, H]、上下文向量 [B, Dk]、注意力权重 [B, S]。可以调用 helpers.attention 的 masked_softmax，也可以把你在 05a 练习 1 里写的函数复制过来。",
     ["Bahdanau 的查询 (query) 是上一步的状态 s_{t-1}：先做注意力，最后才更新状态。",
      "打分用加法形式 v_aᵀ tanh(W_q s_{t-1} + W_k h_j)（式 (9-40) 的 additive 一行：[B, A] 的查询项 unsqueeze(1) 后与 [B, S, A] 的键项相加），"
      "归一化用带掩码的 softmax，c_t 是 enc 的加权和；然后 cell 的输入是 [词向量; c_t]。",
      "形状走一遍 (worked)：B = 1, E = 3, H = 4, Dk = 6, A = 5, S = 5：W_q s_{t-1} [1, 5]，W_k h_j [1, 5, 5]，"
      "分数 [1, 5]，α_t [1, 5]，c_t [1, 6]，[y; c_t] [1, 9]，s_t [1, 4]。"]),
]  # fmt: skip


register_code(NB, _CODE)


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


def _single_padding_weight() -> float | None:
    """The weight of one padding position, when there are several (else the trap is skipped)."""
    _, single, count = padding_weights()
    return single if count > 1 else None


# The prediction: a number near the reference. 4/9 (every position, real or padding, weighted alike) is
# the reasoning the exercise wants; real-word scores of an untrained model are near 0, not exactly 0, so the
# measured share lies a little below it (0.37 on corpus 4.0), within PREDICTION_TOL.
PREDICTION_TOL = 0.08

check_padding_prediction = number_answer(
    lambda: padding_weights()[0], PREDICTION_TOL,
    unfinished="请填入你的预测：一个 0 到 1 之间的数。",
    passed=lambda value, expected, side: f"预测 {value:g} 与测量值 {expected:.3f} 相差不到 {PREDICTION_TOL}",
    traps=[near(0.0, 0.01, "预测 {value:g} 不对。0 是加了掩码 (with the mask) 之后的值；不加掩码时，"
                           "填充位置的分数是多少？exp(那个分数) 又是多少？"),
           near(lambda: 1.0 - padding_weights()[0], 0.03,
                "预测 {value:g} 不对。这更像真实词 (real tokens) 分到的权重之和；题目问的是填充位置 (padding) 的。"),
           near(_single_padding_weight, 0.02,
                lambda value, expected, side: f"预测 {value:g} 不对。这像是一个填充位置的份额；一共有 "
                                              f"{padding_weights()[2]} 个填充位置，请把它们加起来。"),
           outside(0.0, 1.0, "预测 {value:g} 不对。注意力权重之和在 0 到 1 之间。")],
    wrong="预测 {value:g} 差得较远（{side}）。先数一数这一批里一共有几个位置、其中几个是填充，"
          "再想一想：分数都接近 0 时，softmax 给每个位置的权重差不多是多少？",
)

REASONS = {
    "A": "填充位置的编码器输出是零向量，打分恰好为 0；exp(0) = 1，而未训练模型的真实词分数也都接近 0，"
         "所以每个 <pad> 分到的权重和一个真实词差不多。",
    "B": "填充位置的分数是 −∞，exp(−∞) = 0，所以填充位置不分权重。",
    "C": "softmax 只在真实词上做，会自动跳过填充位置。",
    "D": "填充位置的编码器输出是随机的大向量，分数很大，所以它们分走了几乎全部权重。",
}
REASON = "A"

check_padding_reason = choice_answer(
    REASON,
    unfinished="请填入理由的字母 A、B、C 或 D。",
    passed="理由正确：零向量的分数是 0，但 exp(0) = 1，softmax 不知道哪些位置是填充。",
    wrong={"b": "理由 B 不对：只有加了掩码才会把填充位置的分数换成 −∞（或一个很负的数）；编码器在填充位置"
                "输出的是零向量，dot / general 打分是 0，不是 −∞。",
           "c": "理由 C 不对：softmax 只看它拿到的分数，不知道哪些位置是填充；排除填充正是掩码 (mask) 的工作。",
           "d": "理由 D 不对：打包 (packed) 的编码器在填充位置输出的是零向量，不是随机向量。"},
    other="请填 A、B、C、D 中的一个字母（收到 {answer!r}）。",
    example="，例如 'A'",
)

check_padding_weight = predict_and_explain(
    check_padding_prediction, check_padding_reason,
    example="例如 (0.12, 'B')：第一个是预测的数，第二个是理由的字母",
)


register(LazyExercise(
    id="nb05_padding_weight",
    notebook=NB,
    title="先预测：不加掩码时填充位置分到多少权重 (predict the padding weight)",
    prompt=f"把两个句子 {list(PADDING_SENTENCES)} 补齐成一批，用训练刚开始的模型 "
           f"make_model('luong-general', seed={PADDING_SEED}) 算第 1 步解码的注意力权重，不加掩码 "
           "(without the mask)。第一个（较短的）句子的所有填充位置一共会分到多少权重？先预测（误差 ±0.08 以内算对），"
           "再选出理由：" + "；".join(f"{k}. {v}" for k, v in REASONS.items()) +
           " 答案写成 (预测的数, 理由的字母)；检查之后再运行下一格，看测量结果。",
    solve=lambda: (round(padding_weights()[0], 3), REASON),
    checker=check_padding_weight,
    points=2,  # the prediction and its reason (partial credit for the prediction alone)
    hints=["数一数：短句有几个真实词？补齐到多长？所以有几个 <pad>？",
           "未训练的模型打分都接近 0，<pad> 的分数恰好是 0：softmax 之后每个位置的权重差不多一样大。",
           "预测 ≈ 填充个数 / 补齐后的长度；理由要解释为什么分数为 0 的位置仍然分到权重。"],
))


# --------------------------------------------------------------------------- nb05b_local_m_row
# Predict, then run: local-m's row for 昨天 in "tom ate an apple yesterday ." (D = 2). 昨天 is the 2nd
# target word, so p_t = 2 and the window holds source positions 1-4; yesterday is position 5. The answer
# follows from Eq. (E3) alone, before any model is run: yesterday gets exactly 0.
LOCAL_M_REASONS = {
    "A": "local-m 的中心是 p_t = t = 2，窗口是第 1–4 个源词；yesterday 是第 5 个，在窗口外，权重恰好为 0，"
         "这一行的权重全部分给窗口里的 4 个词。",
    "B": "local-m 只是去掉窗口外那些很小的权重，峰值还在 yesterday 上，所以和全局注意力差不多。",
    "C": "比全局注意力小一些：高斯把离中心远的位置压低了，但不会压到 0。",
    "D": "窗口里的位置平分权重，每个位置 1/(2D+1) = 0.2。",
}

check_local_m_prediction = number_answer(
    0.0, 0.01,
    unfinished="请填入你的预测：yesterday 在“昨天”那一行分到的权重，一个 0 到 1 之间的数。",
    passed=lambda value, expected, side: f"预测 {value:g} 正确：yesterday 在窗口外，权重恰好为 0",
    traps=[near(0.2, 0.03, "预测 {value:g} 不对：窗口里的权重按打分做 softmax，并不平分；而且先看 yesterday 在不在窗口里。"),
           outside(0.0, 1.0, "预测 {value:g} 不对。注意力权重在 0 到 1 之间。")],
    wrong="预测 {value:g} 不对（{side}）。先算窗口：“昨天”是第几个输出词？p_t 是多少？窗口从第几个源词到第几个？",
)

check_local_m_reason = choice_answer(
    "A",
    unfinished="请填入理由的字母 A、B、C 或 D。",
    passed="理由正确：窗口由 p_t = t 决定，与打分无关；窗口外的位置不参加 softmax。",
    wrong={"b": "理由 B 不对：yesterday 正是窗口外的位置，它的权重不是“很小”，而是恰好为 0；峰值只能落在窗口里。",
           "c": "理由 C 不对：高斯只属于 local-p（式 (E5)）；local-m 的一行就是窗口里的 softmax（式 (E3)）。",
           "d": "理由 D 不对：窗口里的权重按打分做 softmax，不是平分；何况 yesterday 不在窗口里。"},
    other="请填 A、B、C、D 中的一个字母（收到 {answer!r}）。",
    example="，例如 'A'",
)

register(LazyExercise(
    id="nb05b_local_m_row",
    notebook=NB,
    title="先预测：local-m 在“昨天”那一行给 yesterday 多少权重 (predict local-m's row)",
    prompt="句子 'tom ate an apple yesterday .'，译文 “汤姆 昨天 吃 了 一 个 苹果 。”。用 local-m（式 (E3)，窗口半径 D = 2）"
           "算注意力：输出“昨天”的那一步，源词 yesterday 分到多少权重？先预测（±0.01 以内算对），再选出理由："
           + "；".join(f"{k}. {v}" for k, v in LOCAL_M_REASONS.items()) +
           " 答案写成 (预测的数, 理由的字母)；检查之后再运行补充 3 的那一格，看三张图。",
    solve=lambda: (0.0, "A"),
    checker=predict_and_explain(check_local_m_prediction, check_local_m_reason,
                                example="例如 (0.5, 'B')：第一个是预测的数，第二个是理由的字母"),
    points=2,  # the prediction and its reason
    hints=["“昨天”是第 2 个输出词；local-m 取 p_t = t。",
           "窗口是 [p_t − D, p_t + D]；yesterday 是第几个源词？",
           "窗口外的位置不参加 softmax，权重恰好为 0。"],
))
