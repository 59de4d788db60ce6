"""Exercises of notebook 07a_heatmaps (reading alignment heatmaps, AER, the AttentionExplorer).

* ``nb07_aer_reading``     a prediction, then a run: the corpus AER of luong-general on the ``novel``
  split (greedy outputs equal to the reference), next to the test AER the notebook shows
  (``nb07_aer_reading_why``: the direction, with its reason: is novel's AER higher than that of the test
  pairs of the same lengths? graded by the direction only, not against a tolerance line)
* ``nb07a_aer_floor``       code that needs reasoning first: the lowest AER any attention matrix can reach under
  the arg-max rule (one link per target row), from the gold links alone; a row with two sure links
  (last night -> 昨晚) keeps it above 0.
* ``nb07a_threshold_rule`` reason, then run: with a threshold rule instead of the arg-max, a row with two
  sure links (last night -> 昨晚) gets both, and AER can only fall (the numerator gains 2, the
  denominator 1, and the numerator never exceeds twice the denominator): right by reasoning.

The ids keep the ``nb07_`` prefix of the notebook before the split (the grader's columns use them).

The predicted AER depends on the shipped model, so it is computed lazily (on first check or
first access of ``.solution``) from ``helpers.load_pretrained("luong-general")``.
"""

from __future__ import annotations

from functools import lru_cache

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


# --------------------------------------------------------------------------- 2. code: the best AER one link per row can reach
def aer_floor(n_tgt: int, sure, possible) -> float:
    """Reference: the lowest AER that any set of links with exactly one link per target row (the arg-max rule)
    can reach against ``sure`` / ``possible`` links {(i, j)} of a sentence with ``n_tgt`` target words.

    With A one link per row: |A| = n_tgt; a row with a sure link adds 2 to |A∩S| + |A∩P| (S ⊆ P), a row with only
    possible links adds 1, a row with none adds 0. So AER_min = 1 - (2 n_sure_rows + n_possible_only_rows) /
    (n_tgt + |S|)."""
    sure = {(int(i), int(j)) for i, j in sure}
    possible = {(int(i), int(j)) for i, j in possible} | sure
    rows_sure = {j for _, j in sure}
    rows_possible = {j for _, j in possible} - rows_sure
    return 1.0 - (2 * len(rows_sure) + len(rows_possible)) / (n_tgt + len(sure))


def _floor_cases() -> list[tuple[str, int, set, set]]:
    return [
        ("每行一个确定链接 (one sure link per row)", 3, {(0, 0), (1, 1), (2, 2)}, set()),
        ("一行有两个确定链接，像“昨晚” (two sure links in one row)", 3, {(0, 0), (1, 0), (2, 1), (3, 2)}, set()),
        ("一行只有可能链接 (a row with possible links only)", 4, {(0, 0), (2, 1), (3, 3)}, {(1, 2), (3, 2)}),
        ("一行没有链接 (a row with no link)", 4, {(0, 0), (1, 1), (2, 1), (3, 3)}, {(0, 1)}),
    ]


@function_answer("aer_floor(n_tgt, sure, possible)", "nb07a_aer_floor")
def check_aer_floor(answer) -> Verdict:
    for label, n_tgt, sure, possible in _floor_cases():
        out, exc = call_answer(answer, n_tgt, set(sure), set(possible))
        if exc is not None:
            return Verdict(False, f"你的函数抛出了异常 (raised an exception)：{exception_text(exc)}。"
                                  f"\n测试用例 (test case)：{label}。", {"kind": "exception"})
        if out is None:
            return Verdict(False, f"{NOT_FINISHED}：你的函数返回了 None。", {"kind": "unfinished"})
        value, exc = (None, None) if isinstance(out, (str, bytes)) else call_answer(float, out)
        if exc is not None or value is None or value != value:
            return Verdict(False, f"应返回一个数 (a number)，实际返回 {type(out).__name__}：{str(out)[:80]}。",
                           {"kind": "type"})
        expected = aer_floor(n_tgt, sure, possible)
        if abs(value - expected) <= 1e-9:
            continue
        case = f"\n测试用例 (test case)：{label}，T = {n_tgt}，S = {sorted(sure)}，P 中不在 S 里的 = {sorted(possible)}。" \
               f"期望 (expected) {expected:.4f}，实际 (got) {value:.4f}。"
        rows = {j for _, j in sure}
        if abs(value) <= 1e-9 and len(rows) < len(sure):
            msg = ("一行有两个确定链接时，arg-max 规则只能连上其中一个：|A| = T 而 |S| 更大，AER 到不了 0。")
        elif abs(value - (1.0 - 2 * len(rows) / (n_tgt + len(sure)))) <= 1e-9:
            msg = "只有可能链接 (possible) 的行也能得分：S ⊆ P，连上一个可能链接，|A∩P| 加 1。"
        else:
            msg = ("算一算每一行能为分子 |A∩S| + |A∩P| 贡献多少：有确定链接的行最多 2，只有可能链接的行最多 1，"
                   "没有链接的行 0；分母是 |A| + |S|，而 |A| = T。")
        return Verdict(False, msg + case, {"kind": "value"})
    return Verdict(True, f"全部 {len(_floor_cases())} 个测试用例通过 (all cases passed)。", {"kind": "pass"})


register(Exercise(
    id="nb07a_aer_floor",
    notebook=NOTEBOOK,
    title="arg-max 规则最好能到多少？(the lowest AER one link per row can reach)",
    prompt="AER 的 arg-max 规则给每个目标词恰好一个链接。实现 aer_floor(n_tgt, sure, possible)：n_tgt 是目标词数 T，"
           "sure、possible 是标准对齐的链接集合 {(i, j)}（possible 里可以不重复 sure 的链接）。返回在“每行恰好一个链接”"
           "的前提下，任何注意力矩阵能达到的最低 AER。",
    solution=aer_floor,
    checker=check_aer_floor,
    hints=["AER = 1 − (|A∩S| + |A∩P|) / (|A| + |S|)，而 S ⊆ P；每行一个链接，所以 |A| = T。",
           "一行的那一个链接，落在确定链接上时为分子贡献 2，只落在可能链接上时贡献 1；一行没有任何链接时贡献 0。",
           "所以最低 AER = 1 − (2 × 有确定链接的行数 + 只有可能链接的行数) / (T + |S|)。"],
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
