"""Exercises of notebook 06_training: the toy corpus and the comparison of the shipped models.

* ``nb06_crossing_share`` (reading) the share of test pairs whose gold alignment has crossing links
* ``nb06_has_crossing``   (code) ``links_cross(links)``: do two alignment links cross?
* ``nb06_best_aer``       (reading) which shipped model has the lowest AER on test (metrics.json)
"""

from __future__ import annotations

from itertools import combinations

from helpers.checkpoint import load_metrics
from helpers.exercises import Exercise, LazyExercise, register
from helpers.exercises.engine import NOT_FINISHED, Verdict, call_answer, exception_text
from helpers.exercises.kinds import choice_answer, function_answer, near, number_answer, percent

_NB = "06_training"


# --------------------------------------------------------------------------- nb06_crossing_share
def crossing_share(split: str = "test") -> float:
    """Reference: share of pairs of ``split`` with crossing sure links (from ``corpus_stats``)."""
    from helpers.corpus import corpus_stats

    return float(corpus_stats()["crossing_share"][split])


check_crossing_share = number_answer(
    lambda: crossing_share("test"), 0.005,
    unfinished="请填入一个 0 到 1 之间的小数，例如 0.5。",
    passed="正确：test 划分中 {expected:.1%} 的句对至少有一对交叉的对齐连线。",
    traps=[percent(0.005, "{value:g} 是百分数 (a percentage)：请写成 0~1 之间的小数 (a fraction)。"),
           *(near(lambda split=split: crossing_share(split), 0.0005, f"{{value:g}} 是 {split} 划分的比例，题目问的是 test 划分。")
             for split in ("train", "valid", "long"))],
    wrong="不对：{value:g} {side}。",
)


register(LazyExercise(
    id="nb06_crossing_share",
    notebook=_NB,
    title="读数：test 中对齐交叉的句对占多少？",
    prompt="在 test 划分中，金标准对齐 (gold alignment) 至少有一对交叉连线的句对占多大比例？填 0~1 之间的小数（精确到 0.005）。",
    solve=lambda: crossing_share("test"),
    checker=check_crossing_share,
    hints=["语料统计 corpus_stats() 里有一项 'crossing_share'，按划分 (split) 给出。",
           "stats['crossing_share']['test'] 就是答案；注意不要看成 train 的。",
           "直接写 check('nb06_crossing_share', stats['crossing_share']['test'])。"],
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
def best_aer_model() -> str | None:
    """Reference: the shipped attention model with the lowest test AER in metrics.json (None if absent)."""
    models = (load_metrics(missing_ok=True) or {}).get("models", {})
    scored = {name: m["test"].get("aer") for name, m in models.items() if m.get("test", {}).get("aer") is not None}
    return min(scored, key=scored.get) if scored else None


check_best_aer = choice_answer(
    best_aer_model,
    unfinished="请填入模型名，例如 'luong-dot'。",
    passed="正确：{expected} 的 AER 最低，它的注意力最接近金标准对齐。",
    wrong={"none": "无注意力模型 (none) 没有注意力矩阵，也就没有 AER。"},
    options=lambda: (load_metrics(missing_ok=True) or {}).get("models", {}),
    wrong_default="不对：{answer!r} 的 AER 不是最低的。AER 是错误率，越小越好 (lower is better)。",
    other=lambda answer, norm, expected: f"没有这个模型 (unknown model) {answer!r}：可选 "
                                         f"{', '.join((load_metrics(missing_ok=True) or {}).get('models', {}))}。",
    missing=lambda exc: Verdict(False, "找不到评测结果 (metrics.json missing)：请先运行 `make evaluate`。",
                                {"kind": "value"}),
)


register(LazyExercise(
    id="nb06_best_aer",
    notebook=_NB,
    title="读表：哪个模型的对齐最准？",
    prompt="在预训练模型的比较表中，哪个模型在 test 上的 AER（对齐错误率）最低？填模型名，例如 'luong-dot'。",
    solve=best_aer_model,
    checker=check_best_aer,
    hints=["看比较表的 AER 一列；无注意力模型 none 没有这一项。",
           "AER 是错误率 (error rate)：数值越小，注意力越接近金标准对齐。",
           "答案就是 AER 一列中数值最小的那一行的模型名。"],
))
