"""Exercises of notebook 07a_heatmaps (reading alignment heatmaps, AER, the AttentionExplorer).

* ``nb07_aer_reading``     a prediction, then a run: the corpus AER of luong-general on the ``novel``
  split (greedy outputs equal to the reference), next to the test AER the notebook shows
  (``nb07_aer_reading_why``: the direction, with its reason: is novel's AER higher than that of the test
  pairs of the same lengths? graded by the direction only, not against a tolerance line)
* ``nb07_argmax_links``    code: reduce an attention matrix [T, S] to alignment links with the arg-max
  rule that AER uses (Luong et al. 2015), returning {(source i, target j)}.
* ``nb07a_threshold_rule`` reason, then run: with a threshold rule instead of the arg-max, a row with two
  sure links (last night -> 昨晚) gets both, and AER can only fall (the numerator gains 2, the
  denominator 1, and the numerator never exceeds twice the denominator): right by reasoning.

The ids keep the ``nb07_`` prefix of the notebook before the split (the grader's columns use them).

The predicted AER depends on the shipped model, so it is computed lazily (on first check or
first access of ``.solution``) from ``helpers.load_pretrained("luong-general")``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from helpers.exercises import Exercise, LazyExercise, register
from helpers.exercises.engine import NOT_FINISHED, Verdict, call_answer, exception_text
from helpers.exercises.kinds import (
    Trap,
    function_answer,
    number_answer,
    outside,
    reason_answer,
)
from helpers.exercises.reveals import SAME_AER, novel_vs_test, split_aer  # noqa: F401 (re-exported)

NOTEBOOK = "07a_heatmaps"
MODEL = "luong-general"
AER_TOLERANCE = 0.03  # a prediction, not a reading


def _model_missing(exc: Exception) -> Verdict:
    return Verdict(False, f"无法加载预训练模型 {MODEL} (cannot load the pretrained model)：{str(exc).rstrip('。')}。"
                          "请先运行 make pretrained，再检查这道题。", {"kind": "model_missing"})


# --------------------------------------------------------------------------- 1. AER on novel, predicted
@lru_cache(maxsize=4)
def solve_aer_reading() -> float:
    """The AER of luong-general on the novel split (what the reveal cell prints)."""
    return split_aer("novel")


def _out_of_range(value, expected, side) -> str:
    tip = "（是不是写成了百分数？AER 是 0 到 1 之间的小数）" if 1.0 < value <= 100.0 else ""
    return f"AER 的取值在 0 到 1 之间 (AER lies in [0, 1])，你填的是 {value:g}{tip}。"


check_aer_reading = number_answer(
    solve_aer_reading, AER_TOLERANCE,
    unfinished="请填入你预测的 AER（一个 0 到 1 之间的数）。",
    passed="预测得不错：novel 上的 AER 是 {expected:.3f}，你的预测在 ±0.03 以内。",
    traps=[outside(0.0, 1.0, _out_of_range, "range"),
           Trap(lambda value, expected: abs((1.0 - value) - expected) <= AER_TOLERANCE,
                "你填的 {value:g} 像是 1 − AER（对齐的“正确率”）。AER 是错误率：越小越好。", "one_minus")],
    wrong="和揭晓的结果差得较多：{value:g} {side}。对照第 4 节表里 test 上的 AER，想想 novel 和 test 哪里不同。",
    missing=_model_missing,
)


register(LazyExercise(
    id="nb07_aer_reading",
    notebook=NOTEBOOK,
    title="预测：没见过的搭配上，对齐会变差吗？(AER on novel)",
    prompt=f"第 4 节的表给出了 {MODEL} 在 test 上的 AER。先预测：在 novel 子集（训练时没见过的词语搭配，句子也比 test 短）上，"
           "同样只算译对的句子，它的语料级 AER 是多少？填一个 0 到 1 之间的数（±0.03 以内算对），再运行揭晓的单元格。",
    solve=solve_aer_reading,
    checker=check_aer_reading,
    hints=["AER 是错误率：0 表示与标准对齐完全一致。",
           "novel 的句子比 test 短得多（test 最长 40 个词）；同样的句子长短才好比较：test 里有比 novel 长得多的句子。",
           "运行揭晓的单元格，它打印 test、test 里与 novel 同样长短的句子、novel 三个 AER。"],
))


AER_REASONS = {
    "A": "不比同样长短的 test 句子高：注意力为每个中文词找对应的英文词，没见过的只是词的搭配，"
         "每个词和它的译法训练时都见过。",
    "B": "比同样长短的 test 句子高：没见过的搭配让注意力找不到对应的英文词。",
    "C": "比同样长短的 test 句子低，因为 novel 的句子比 test 短，短句更容易对齐。",
}


def _aer_reason() -> str:
    """The direction of novel against the test pairs of the same lengths: A (not higher) or B (higher)."""
    aers = novel_vs_test()
    return "A" if aers["novel"] <= aers["test_same_lengths"] else "B"


register(LazyExercise(
    id="nb07_aer_reading_why",
    notebook=NOTEBOOK,
    title="推理：没见过的搭配会让对齐变差吗？(which direction, and why)",
    prompt="和 test 里同样长短的句子相比，novel 上的 AER 会更高还是不更高？选出方向和理由都对的一条："
           + "；".join(f"{k}. {v}" for k, v in AER_REASONS.items()),
    solve=_aer_reason,
    checker=reason_answer(_aer_reason, AER_REASONS, why_not={
        "A": "揭晓的结果里 novel 比同样长短的 test 句子高：这条的方向与结果不符。",
        "B": "揭晓的结果里 novel 并不比同样长短的 test 句子高。想一想：注意力找的是一个词对着哪个英文词，"
             "没见过的是什么？",
        "C": "比较的对象已经是“同样长短”的 test 句子，句长不能解释两者的差别。"},
        missing=_model_missing),
    hints=["注意力的每一行回答的是：这个中文词对着哪个英文词。",
           "novel 里没见过的是词的搭配，不是词本身。",
           "揭晓单元格打印了三个 AER：拿 novel 和同样长短的 test 句子比，而不是和整个 test 比。"],
))


# --------------------------------------------------------------------------- 2. code: arg-max links
def argmax_links(attention) -> set[tuple[int, int]]:
    """Reference: {(i, j)} with i = arg-max over the source positions of row j of ``attention`` [T, S]."""
    att = np.asarray(attention, dtype=float)  # [T, S]
    return {(int(np.argmax(att[j])), j) for j in range(att.shape[0])}


def _cases() -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(7)
    hand = np.array([[0.7, 0.1, 0.1, 0.1],
                     [0.1, 0.1, 0.2, 0.6],
                     [0.2, 0.5, 0.2, 0.1]])  # [T=3, S=4]: links (0,0), (3,1), (1,2)
    tall = rng.dirichlet(np.ones(3), size=6)  # [T=6, S=3]
    wide = rng.dirichlet(np.ones(8), size=4)  # [T=4, S=8]
    return [("手算的小例子 (T=3, S=4)", hand), ("目标比源长 (T=6, S=3)", tall), ("源比目标长 (T=4, S=8)", wide),
            ("只有一步 (T=1, S=5)", rng.dirichlet(np.ones(5), size=1))]


def _as_link_set(out):
    if isinstance(out, np.ndarray) or isinstance(out, (str, bytes)) or not hasattr(out, "__iter__"):
        return None
    links = set()
    for item in out:
        if not hasattr(item, "__len__") or len(item) != 2:
            return None
        i, j = item
        try:
            links.add((int(i), int(j)))
        except (TypeError, ValueError):
            return None
    return links


@function_answer("argmax_links(attention)", "nb07_argmax_links")
def check_argmax_links(answer) -> Verdict:
    for label, att in _cases():
        out, exc = call_answer(answer, att.copy())
        if exc is not None:
            return Verdict(False, f"你的函数抛出了异常 (raised an exception)：{exception_text(exc)}。"
                                  f"\n测试用例 (test case)：{label}，attention 形状 {list(att.shape)}。",
                           {"kind": "exception"})
        if out is None:
            return Verdict(False, f"{NOT_FINISHED}：你的函数返回了 None。", {"kind": "unfinished"})
        links, exc = call_answer(_as_link_set, out)
        if links is None:
            return Verdict(False, f"应返回链接的集合 (a set of (i, j) pairs)，例如 {{(0, 0), (3, 1)}}；"
                                  f"实际返回 {type(out).__name__}：{str(out)[:80]}。", {"kind": "type"})
        expected = argmax_links(att)
        if links == expected:
            continue
        T, S = att.shape
        swapped = {(j, i) for i, j in expected}
        by_column = {(i, int(np.argmax(att[:, i]))) for i in range(S)}
        case = f"\n测试用例 (test case)：{label}。期望 (expected) {sorted(expected)}，实际 (got) {sorted(links)}。"
        if links == swapped:
            msg = "链接的顺序反了 (order swapped)：每个链接应写成 (源位置 i, 目标位置 j)，不是 (j, i)。"
        elif links == by_column or {(j, i) for i, j in by_column} == links:
            msg = ("arg-max 取错了维度 (wrong axis)：attention[j, i] 的第 j 行是目标词 j 对所有源词的权重，"
                   "应在每一行里取最大的列（axis=1 / 最后一维）。")
        elif len(links) != T:
            msg = f"链接个数应等于目标长度 T = {T}（每个目标词恰好一个链接），你给了 {len(links)} 个。"
        else:
            msg = "有的链接不对 (wrong links)：检查是不是对每一行 j 取了 arg-max。"
        return Verdict(False, msg + case, {"kind": "value"})
    return Verdict(True, f"全部 {len(_cases())} 个测试用例通过 (all cases passed)。", {"kind": "pass"})


register(Exercise(
    id="nb07_argmax_links",
    notebook=NOTEBOOK,
    title="从注意力矩阵得到对齐链接 (attention -> alignment links)",
    prompt="实现 argmax_links(attention)：attention 是 numpy 数组 [T, S]，attention[j, i] 是生成目标词 j 时源词 i "
           "的权重。返回链接集合 {(i, j)}：对每个目标位置 j，i 是这一行权重最大的源位置（AER 用的就是这条规则）。",
    solution=argmax_links,
    checker=check_argmax_links,
    hints=["每个目标词 j 恰好产生一个链接，所以结果里有 T 个链接。",
           "np.argmax(attention[j]) 给出第 j 行最大值所在的列 i。",
           "一个小例子 (a worked example)：attention = [[0.7, 0.3], [0.1, 0.9], [0.6, 0.4]]（T = 3, S = 2）："
           "第 0 行最大在第 0 列 → (0, 0)；第 1 行 → (1, 1)；第 2 行 → (0, 2)。对每一行都这样做，链接写成 (i, j)。"],
))


# --------------------------------------------------------------------------- 3. a threshold rule, reasoned
THRESHOLD_OPTIONS = {
    "A": "变小：“昨晚”这一行多出一条链接 (night, 昨晚)，它同时在 S 和 P 里，分子多 2、分母只多 1。",
    "B": "不变：AER 只看每一行的最大值落在哪里，换规则也一样。",
    "C": "变大：|A| 多了一条链接，分母变大，AER 就变大。",
    "D": "不能确定：要看其余各行的权重有多软。",
}

register(Exercise(
    id="nb07a_threshold_rule",
    notebook=NOTEBOOK,
    title="先推理：把 arg-max 换成阈值规则，AER 会怎样？(a threshold rule)",
    prompt="把 AER 的 arg-max 规则换成“一行里权重不小于 0.3 的源词都算链接”。“昨晚”一行有两个确定链接 last、night，"
           "权重是 last 0.55、night 0.40，其余合起来 0.05；其余各行都是落在标准对齐上的 one-hot。这句话的 AER 会怎样？"
           + "；".join(f"{k}. {v}" for k, v in THRESHOLD_OPTIONS.items()),
    solution="A",
    checker=reason_answer("A", THRESHOLD_OPTIONS, why_not={
        "B": "换了规则，A 就变了：阈值规则下“昨晚”一行不止一条链接。AER 只看最大值，是 arg-max 规则的性质。",
        "C": "分母确实多 1，可分子多 2（新链接既在 A∩S 里，也在 A∩P 里）：算一算 1 − (n + 2)/(d + 1) 和 1 − n/d 哪个小。",
        "D": "其余各行都是 one-hot：不论阈值是多少，它们都只给一条链接，与原来一样。"}),
    hints=["AER = 1 − (|A∩S| + |A∩P|) / (|A| + |S|)，S ⊆ P。",
           "阈值规则下，“昨晚”这一行有几条链接？(night, 昨晚) 在不在 S 里？",
           "分子多 2、分母多 1：因为分子不超过分母的 2 倍，这个比值只会变大，AER 只会变小。"],
))
