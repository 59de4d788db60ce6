"""Exercises of notebook 06_training: the toy corpus and the comparison of the shipped models.

* ``nb06_crossing_share`` (prediction, then a run) the share of short test pairs (at most ``SHORT`` English
                          words) whose gold alignment has crossing links (``nb06_crossing_share_why``)
* ``nb06_has_crossing``   (code) ``links_cross(links)``: do two alignment links cross?
* ``nb06_best_aer``       (prediction, then a run) which shipped attention model has the highest
                          teacher-forced AER on the ``long`` split, where test shows one model clearly
                          behind the rest (``nb06_best_aer_why``)
"""

from __future__ import annotations

from itertools import combinations

from helpers.exercises import Exercise, LazyExercise, register
from helpers.exercises.engine import NOT_FINISHED, Verdict, call_answer, exception_text
from helpers.exercises.kinds import (
    choice_answer,
    function_answer,
    number_answer,
    percent,
    reason_answer,
)
from helpers.exercises.reveals import ATTENTION_MODELS, split_aers  # noqa: F401 (re-exported)

_NB = "06_training"


# --------------------------------------------------------------------------- nb06_crossing_share
SHORT = 5  # "short" test sentences: at most this many English tokens
PREDICT_TOL = 0.1  # a prediction, not a reading


def crossing_share(split: str = "test") -> float:
    """Share of pairs of ``split`` with crossing sure links (from ``corpus_stats``)."""
    from helpers.corpus import corpus_stats

    return float(corpus_stats()["crossing_share"][split])


def short_crossing_share(max_len: int = SHORT) -> float:
    """Reference: share of test pairs of at most ``max_len`` English tokens with crossing sure links."""
    from helpers.corpus import has_crossing, load_corpus

    short = [p for p in load_corpus("test") if len(p.src) <= max_len]
    return sum(has_crossing(p) for p in short) / len(short)


check_crossing_share = number_answer(
    short_crossing_share, PREDICT_TOL,
    unfinished="请填入你预测的比例：一个 0 到 1 之间的小数，例如 0.5。",
    passed="预测得不错：不超过 5 个词的 test 句子里，{expected:.1%} 有交叉的对齐连线。",
    traps=[percent(PREDICT_TOL, "{value:g} 是百分数 (a percentage)：请写成 0~1 之间的小数 (a fraction)。")],
    wrong="和揭晓的结果差得较多：{value:g} {side}。想想短句子里能装下几种需要调序的成分。",
)


register(LazyExercise(
    id="nb06_crossing_share",
    notebook=_NB,
    title="预测：短句子里，对齐交叉的比例是多少？",
    prompt=f"第 1 节的表给出了整个 test 子集里对齐有交叉的比例。先预测：只看不超过 {SHORT} 个英文词的 test 句子，"
           "这个比例是多少？填 0~1 之间的小数（±0.1 以内算对），再运行揭晓的单元格。",
    solve=short_crossing_share,
    checker=check_crossing_share,
    hints=["交叉来自调序：时间、地点状语前移，关系从句前移，量词和形容词交错……",
           "一个 4 个词的句子（例如 where is the cinema ?）能装下几种这样的成分？",
           "先写下预测，再运行揭晓的单元格：它按长度分组打印交叉的比例。"],
))


CROSSING_REASONS = {
    "A": "比整个 test 低：短句子里需要调序的成分（状语、从句、量词 + 形容词）少，很多句子逐词照抄就行。",
    "B": "比整个 test 高：句子越短，词和词越容易换位置。",
    "C": "和整个 test 差不多：交叉与句子长短无关。",
}


def _crossing_reason() -> str:
    return "A"  # right by reasoning: crossings come from reordered constituents, and short sentences hold few


register(LazyExercise(
    id="nb06_crossing_share_why",
    notebook=_NB,
    title="解释：短句子的交叉比例为什么是这样？",
    prompt="选出推理正确的一条：" + "；".join(f"{k}. {v}" for k, v in CROSSING_REASONS.items()),
    solve=_crossing_reason,
    checker=reason_answer(_crossing_reason, CROSSING_REASONS, why_not={
        "B": "交叉不是因为句子短，而是因为有成分换了位置（时间、地点状语前移，关系从句前移，量词和形容词交错）；"
             "句子越短，能换位置的成分越少。",
        "C": "交叉来自需要调序的成分，而长句子装得下的这类成分更多，所以交叉和句子长短有关。"}),
    hints=["交叉从哪里来？想想第 1 节里有交叉的例子：是哪些成分换了位置？",
           "不超过 5 个词的句子能装下几个这样的成分？",
           "一条解释对不对，要看它的推理，而不是看揭晓的结果碰巧是什么。"],
))


# --------------------------------------------------------------------------- nb06_has_crossing
def links_cross(links) -> bool:
    """Reference: True if two links (i1, j1), (i2, j2) have i1 < i2 and j1 > j2."""
    return any((i1 - i2) * (j1 - j2) < 0 for (i1, j1), (i2, j2) in combinations(set(links), 2))


_LINK_CASES = [
    ("单调对齐 (monotone)：i am a student .", {(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)}, False),
    ("一个英文词对两个中文词 (one-to-many)", {(0, 0), (0, 1), (1, 2)}, False),
    ("两个英文词对一个中文词 (many-to-one)", {(0, 0), (1, 0), (2, 1)}, False),
    ("时间状语前移 (time adverb moves forward)", {(0, 0), (4, 1), (1, 2), (3, 3)}, True),
    ("两条连线交叉", {(1, 0), (0, 1)}, True),
    ("空对齐 (no links)", set(), False),
    ("只有一条连线", {(3, 2)}, False),
    ("乱序给出的单调对齐 (unsorted input)", {(2, 2), (0, 0), (1, 1)}, False),
    ("列表形式 (a list, not a set)", [(0, 1), (1, 0)], True),
]


def _wrong_kind(links, out) -> str:
    """Name the usual mistake behind a wrong verdict for ``links``."""
    pairs = list(combinations(set(links), 2))
    if any((i1 == i2) != (j1 == j2) for (i1, j1), (i2, j2) in pairs):
        return "同一个词连到多个词（一对多 / 多对一）不算交叉：只有 i1 < i2 且 j1 > j2（严格不等）才算。"
    if out and not links_cross(links):
        return "“交叉”指的是顺序相反：源位置变大时目标位置变小。两条同向的连线不交叉。"
    return "检查每一对连线 (every pair of links)，不只是相邻的；输入可能没有排序，也可能是 list。"


@function_answer("links_cross(links)", "nb06_has_crossing")
def check_has_crossing(answer) -> Verdict:
    cases = list(_LINK_CASES)
    from helpers.corpus import load_corpus

    for pair in load_corpus("test")[:40]:
        cases.append((f"test 句对 '{' '.join(pair.src)}'", set(pair.sure), links_cross(pair.sure)))
    for label, links, expected in cases:
        out, exc = call_answer(answer, set(links) if isinstance(links, set) else list(links))
        if exc is not None:
            return Verdict(False, f"函数运行出错 (your function raised) {exception_text(exc)}"
                                  f"（用例：{label}，links = {sorted(links)}）。", {"kind": "error", "case": label})
        if out is None:
            return Verdict(False, f"{NOT_FINISHED}：函数返回了 None。", {"kind": "unfinished"})
        if type(out).__name__ == "bool_":  # numpy's bool
            out = bool(out)
        if not isinstance(out, bool):
            return Verdict(False, f"应返回 True 或 False (a bool)，你返回了 {type(out).__name__}：{out!r}。",
                           {"kind": "type", "case": label})
        if out != expected:
            shown = sorted(links)
            shown = shown if len(shown) <= 8 else shown[:8] + ["…"]
            return Verdict(False, f"用例“{label}”：links = {shown} 应返回 {expected}，你返回了 {out}。"
                                  f"{_wrong_kind(links, out)}", {"kind": "value", "case": label})
    return Verdict(True, f"全部 {len(cases)} 个用例通过，和 helpers.corpus.has_crossing 的判断一致。", {"kind": "pass"})


register(Exercise(
    id="nb06_has_crossing",
    notebook=_NB,
    title="代码：判断对齐连线是否交叉",
    prompt="实现 links_cross(links)：links 是对齐连线 (i, j) 的集合或列表（i = 英文词位置，j = 中文词位置）。"
           "只要有两条连线 (i1, j1)、(i2, j2) 满足 i1 < i2 且 j1 > j2，就返回 True，否则返回 False。",
    solution=links_cross,
    checker=check_has_crossing,
    hints=["要比较每一对连线：itertools.combinations(links, 2)。",
           "“交叉”必须是严格的：i1 < i2 且 j1 > j2（或反过来）。共用一个端点（一对多）不算交叉。",
           "一个小例子 (a worked example)：links = {(0, 0), (4, 1), (1, 2)} 中，(4, 1) 和 (1, 2) 有 4 > 1 而 1 < 2，"
           "顺序相反，所以交叉。(i1 - i2) * (j1 - j2) < 0 正好表示“顺序相反”：把它用在每一对连线上。"],
))


# --------------------------------------------------------------------------- nb06_best_aer
def best_aer_model(split: str = "long") -> str:
    """Reference: the shipped attention model with the highest teacher-forced AER on ``split``.

    (The id says "best" for the graders' records; the question asks for the model that aligns worst, because
    on ``test`` one model is clearly behind the other three, a gap a student can reason about, while the
    lowest AERs lie within a few thousandths of each other.)
    """
    scores = split_aers(split)
    return max(scores, key=scores.get)


def _model_missing(exc) -> Verdict:
    return Verdict(False, f"无法加载预训练模型 (cannot load the pretrained models)：{exc}。请先运行 make pretrained。",
                   {"kind": "model_missing"})


check_best_aer = choice_answer(
    best_aer_model,
    unfinished="请填入模型名，例如 'luong-dot'。",
    passed="预测正确：在 long 上 {expected} 的 AER 最高。",
    wrong={"none": "无注意力模型 (none) 没有注意力矩阵，也就没有 AER。",
           "rnnencdec": "rnnencdec 也没有注意力：它每一步读的都是同一个摘要向量 c，没有注意力矩阵，也就没有 AER。"},
    options=ATTENTION_MODELS,
    wrong_default="和揭晓的结果不同：{answer!r} 在 long 上的 AER 不是最高的。回到第 3 节的表，看 test 上哪个模型和其余三个差得最远。",
    other=lambda answer, norm, expected: f"没有这个模型 (unknown model) {answer!r}：可选 {', '.join(ATTENTION_MODELS)}。",
    missing=_model_missing,
)


register(LazyExercise(
    id="nb06_best_aer",
    notebook=_NB,
    title="预测：比训练句子都长的句子上，哪个模型对齐得最差？",
    prompt="第 3 节的表给出了四个注意力模型在 test 上的 AER。先预测：在 long 子集（比任何训练句子都长）上，"
           "同样用教师强制算 AER，哪个模型最高（对齐得最差）？填模型名，例如 'luong-dot'，再运行揭晓的单元格。",
    solve=best_aer_model,
    checker=check_best_aer,
    hints=["AER 是错误率 (error rate)：数值越小，注意力越接近标准对齐。",
           "教师强制时解码器读的是参考译文，所以长句上的 AER 只看注意力，不受译文出错的影响。",
           "看第 3 节的表：test 上有一个模型的 AER 比其余三个高出一截。句子变长，这样大的差距会不会颠倒？"],
))


BEST_REASONS = {
    "A": "教师强制下每一步的查询都来自参考译文的前缀，AER 只看注意力落在哪里。句子更长时，每一行要在更多的源词里挑，"
         "四个模型的 AER 都可能上升；test 上一个远大于其余差别的差距，不太会因此颠倒，所以 test 上明显最高的模型"
         "最可能在 long 上仍然最高。几千分之一的差别则说明不了什么，要测了才知道。",
    "B": "long 的句子比任何训练句子都长，模型会提前停下不再生成，所以 long 上的 AER 算不出来，谁最低都一样。",
    "C": "AER 只看每一行最大的权重落在哪一格，和句子长短无关，所以四个模型在 long 上的 AER 与 test 上完全相同。",
}


def _best_reason() -> str:
    return "A"  # right by reasoning whatever the run shows; B and C are wrong by reasoning


register(LazyExercise(
    id="nb06_best_aer_why",
    notebook=_NB,
    title="解释：从 test 上的 AER 能推测 long 上的什么？",
    prompt="选出推理正确的一条：" + "；".join(f"{k}. {v}" for k, v in BEST_REASONS.items()),
    solve=_best_reason,
    checker=reason_answer(_best_reason, BEST_REASONS, why_not={
        "B": "AER 用教师强制计算：解码器每一步读的是参考译文，不靠自己生成，所以不会“提前停下”，long 上照样有注意力矩阵。",
        "C": "每一行的最大值落在哪一格，取决于这一行要在多少个源词里挑、打分函数在长句上还分不分得清；"
             "句子变长，这些都会变，AER 没有理由保持不变。"}),
    hints=["AER 是用教师强制算的：解码器读的是参考译文，而不是它自己的译文。",
           "句子变长以后，每一行的 softmax 要分给更多的源词，峰值可能变低、也可能落错地方。",
           "一条解释对不对，要看它的推理，而不是看揭晓的结果碰巧是什么。"],
))
