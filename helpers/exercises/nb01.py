"""Exercises of notebook 01_information_bottleneck (9.10 intro): BLEU against source length.

* ``nb01_read_bleu``      (prediction, then a run) the char-BLEU of the no-attention model on the first
                          clause of each ``long`` sentence (cut at the first comma), next to its score on
                          whole ``long`` sentences (``nb01_read_bleu_why``: the reason)
* ``nb01_bleu_by_length`` (code) ``bleu_by_length(lengths, hyps, refs, buckets)``: corpus char-BLEU per
                          source-length bucket, the computation behind the plot

The predicted answer is computed from the shipped ``none`` model on first use (``LazyExercise``).
"""

from __future__ import annotations

from helpers.checkpoint import load_metrics  # shared loader; notebooks 01 and 06 import it from here
from helpers.exercises import Exercise, LazyExercise, register
from helpers.exercises.engine import NOT_FINISHED, Verdict, call_answer, exception_text
from helpers.exercises.kinds import Trap, function_answer, number_answer, percent, reason_answer
from helpers.metrics import bleu, sentence_bleu
from helpers.probes import FIRST_CLAUSES, first_clause_bleu, first_clauses  # noqa: F401 (re-exported)

_NB = "01_information_bottleneck"




def bucket_bleu(model: str, bucket: tuple[int, int]) -> float | None:
    """BLEU of ``model`` on the source-length bucket ``(lo, hi)`` of test + long, from metrics.json."""
    from helpers.viz.plots import bleu_by_length_series

    record = load_metrics(missing_ok=True)
    if record is None:
        return None
    buckets, scores, _ = bleu_by_length_series(record)
    if model not in scores or tuple(bucket) not in [tuple(b) for b in buckets]:
        return None
    return scores[model][[tuple(b) for b in buckets].index(tuple(bucket))]


# --------------------------------------------------------------------------- nb01_read_bleu
def long_bleu(name: str = "none") -> float | None:
    record = load_metrics(missing_ok=True)
    return None if record is None else record["models"][name]["long"]["char_bleu"]


PREDICT_TOL = 0.1  # a prediction, not a reading

check_read_bleu = number_answer(
    first_clause_bleu, PREDICT_TOL,
    unfinished="请填入你预测的 char-BLEU（0 到 1 之间的小数），例如 0.5。",
    passed="预测得不错：none 在 long 句子的第一个分句上 char-BLEU 约为 {expected:.2f}。",
    traps=[percent(PREDICT_TOL, "{value:g} 像是百分制：BLEU 在 0~1 之间，请写成小数。"),
           Trap(lambda value, expected: (lambda whole: whole is not None and abs(value - whole) <= 0.05)(long_bleu()),
                "你预测的接近 none 在整句 long 上的分数：可第一个分句只有训练句子那么长。运行揭晓的单元格看看。")],
    wrong="和揭晓的结果差得较多：{value:g} {side}。想想第一个分句有多长，none 在这个长度的 test 句子上得几分。",
    missing=lambda exc: Verdict(False, f"无法加载预训练模型 none：{exc}。请先运行 make pretrained。", {"kind": "value"}),
)


register(LazyExercise(
    id="nb01_read_bleu",
    notebook=_NB,
    title="预测：只译长句的第一个分句，none 得几分？",
    prompt="none 在整句 long 上的 char-BLEU 很低。把每个 long 句子截到第一个逗号（英文补一个句号，参考译文截到第一个"
           "“，”补一个“。”），再让 none 翻译：char-BLEU 会是多少？填 0~1 之间的小数（±0.1 以内算对），再运行揭晓的单元格。",
    solve=first_clause_bleu,
    checker=check_read_bleu,
    hints=["第一个分句有多少个词？和训练句子比，是长还是短？",
           "对照第 2 节的图：none 在这个长度的 test 句子上得几分？",
           "先写下你的预测，再运行揭晓的单元格：它打印一个截出来的例子和 none 在这些分句上的 char-BLEU。"],
))


CLAUSE_REASONS = {
    "A": "接近 none 在训练长度内的分数：第一个分句和训练句子一样长，装得进一个向量；long 上的困难来自长度，不来自词语。",
    "B": "和整句 long 差不多低：long 句子里的词语和搭配本身就难。",
    "C": "比整句还低：截断以后句子不完整，模型译不好。",
}


def _clause_reason() -> str | None:
    whole = long_bleu()
    if whole is None:
        return None
    diff = first_clause_bleu() - whole
    return "A" if diff > 0.2 else ("C" if diff < -0.1 else "B")


register(LazyExercise(
    id="nb01_read_bleu_why",
    notebook=_NB,
    title="解释：第一个分句的分数为什么是这样？",
    prompt="选出与揭晓的结果相符的解释：" + "；".join(f"{k}. {v}" for k, v in CLAUSE_REASONS.items()),
    solve=_clause_reason,
    checker=reason_answer(_clause_reason, CLAUSE_REASONS, why_not={
        letter: "揭晓的两个分数不是这样的关系：比较第一个分句和整句 long 上的 char-BLEU。" for letter in CLAUSE_REASONS},
        missing=lambda exc: Verdict(False, "找不到评测结果 (metrics.json missing)：请先运行 `make evaluate`。",
                                    {"kind": "value"})),
    hints=["揭晓的单元格打印了两个分数：第一个分句的，和整句的。",
           "两者相差很多，说明困难来自什么？相差很少，又说明什么？",
           "第一个分句比整句高出 0.2 以上算“接近训练长度内的分数”，低 0.1 以上算“比整句还低”，其余算“差不多”。"],
))


# --------------------------------------------------------------------------- nb01_bleu_by_length
def bleu_by_length(lengths, hyps, refs, buckets):
    """Reference: corpus char-BLEU of the sentences whose source length lies in each (lo, hi) bucket."""
    out = []
    for lo, hi in buckets:
        idx = [k for k, n in enumerate(lengths) if lo <= n <= hi]
        out.append(bleu([hyps[k] for k in idx], [refs[k] for k in idx], level="char") if idx else None)
    return out


def _data():
    """A tiny hand-made set: source lengths, model outputs, references (Chinese, no spaces)."""
    lengths = [4, 6, 9, 12, 15, 18, 24, 33, 35]
    refs = ["我是学生。", "她喜欢喝茶。", "我们今天没去学校。", "汤姆昨天吃了一个苹果。",
            "她每天在图书馆看书。", "我哥哥有三辆红色的车。", "我看见的那只猫是黑色的，但是它很小。",
            "我喜欢茶，但是他喜欢咖啡，我们每天都在图书馆看书。", "你在哪里买了这本书？我昨天在学校买了一本书。"]
    hyps = ["我是学生。", "她喜欢茶。", "我们今天没去学校。", "汤姆吃了一个苹果。",
            "她在图书馆看书。", "我哥哥有红色的车。", "我看见的猫是黑色的。",
            "我喜欢茶，他喜欢书。", "你在哪里买了书？"]
    return lengths, hyps, refs


_BUCKETS = [(3, 10), (11, 20), (21, 30), (31, 40), (41, 60)]  # corpus 3.0: test 3-40, long 41-60


def _expected_variants(lengths, hyps, refs, buckets):
    """Typical wrong answers, by name, computed here to recognise them."""
    def per_bucket(select, score):
        out = []
        for lo, hi in buckets:
            idx = [k for k, n in enumerate(lengths) if select(n, lo, hi)]
            out.append(score(idx) if idx else None)
        return out

    inclusive = lambda n, lo, hi: lo <= n <= hi  # noqa: E731
    return {
        "sentence_mean": per_bucket(inclusive, lambda idx: sum(sentence_bleu(hyps[k], refs[k]) for k in idx) / len(idx)),
        "word": per_bucket(inclusive, lambda idx: bleu([hyps[k] for k in idx], [refs[k] for k in idx], level="word")),
        "swapped": per_bucket(inclusive, lambda idx: bleu([refs[k] for k in idx], [hyps[k] for k in idx])),
    }


_WHY = {
    "sentence_mean": "你似乎对每句的 BLEU 取了平均 (mean of sentence BLEU)：应把一组句子放在一起算一个语料级 BLEU "
                     "(corpus BLEU)，即 bleu(该组的译文列表, 该组的参考译文列表)。",
    "word": "你算的是词级 BLEU (word level)：这里要字级 (char level)，bleu(..., level='char')。",
    "swapped": "译文和参考译文的位置反了 (hypotheses and references swapped)：bleu(hyps, refs)。",
}


def _same(a, b) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if (x is None) != (y is None):
            return False
        if x is not None and abs(float(x) - float(y)) > 1e-6:
            return False
    return True


@function_answer("bleu_by_length(lengths, hyps, refs, buckets)", "nb01_bleu_by_length")
def check_bleu_by_length(answer) -> Verdict:
    lengths, hyps, refs = _data()
    cases = [("五个长度区间，最后一个是空的 (an empty bucket)", _BUCKETS),
             ("区间边界正好落在句子长度上 (bounds are inclusive)", [(4, 9), (12, 18), (24, 24), (33, 35)]),
             ("只有一个区间", [(1, 50)])]
    for label, buckets in cases:
        expected = bleu_by_length(lengths, hyps, refs, buckets)
        out, exc = call_answer(answer, list(lengths), list(hyps), list(refs), list(buckets))
        if exc is not None:
            return Verdict(False, f"函数运行出错 (your function raised) {exception_text(exc)}（用例：{label}）。"
                                  "空的区间没有句子，bleu([], []) 会出错：这时返回 None。", {"kind": "error", "case": label})
        if out is None:
            return Verdict(False, f"{NOT_FINISHED}：函数返回了 None。", {"kind": "unfinished"})
        if isinstance(out, dict):
            return Verdict(False, "应返回一个列表 (a list)，每个区间一个数，顺序与 buckets 相同；你返回了字典。",
                           {"kind": "type", "case": label})
        out, exc = call_answer(list, out)
        if exc is not None:
            return Verdict(False, f"应返回一个列表 (a list)，你返回了 {type(out).__name__}。", {"kind": "type"})
        if len(out) != len(buckets):
            return Verdict(False, f"用例“{label}”：有 {len(buckets)} 个区间，应返回 {len(buckets)} 个数，你返回了 "
                                  f"{len(out)} 个。", {"kind": "value", "case": label})
        for x, y in zip(out, expected):
            if y is None and x is not None:
                return Verdict(False, f"用例“{label}”：没有句子的区间应返回 None（不是 {x!r}）：0 分会让折线看起来"
                                      "像模型翻得很差。", {"kind": "value", "case": label})
            if y is not None and not isinstance(x, (int, float)):
                return Verdict(False, f"用例“{label}”：每个非空区间应是一个数 (a float)，你给了 {x!r}。",
                               {"kind": "type", "case": label})
        if _same(out, expected):
            continue
        variants = _expected_variants(lengths, hyps, refs, buckets)
        why = next((_WHY[name] for name, v in variants.items() if _same(out, v)), None)
        if why is None:
            exclusive = [bleu([hyps[k] for k, n in enumerate(lengths) if lo <= n < hi],
                              [refs[k] for k, n in enumerate(lengths) if lo <= n < hi])
                         if any(lo <= n < hi for n in lengths) else None for lo, hi in buckets]
            why = ("区间两端都包含在内 (inclusive)：lo <= n <= hi。" if _same(out, exclusive)
                   else "对每个区间：挑出 lo <= 长度 <= hi 的句子，再对它们算一次 bleu(hyps, refs, level='char')。")
        shown = [None if v is None else round(float(v), 3) for v in out]
        want = [None if v is None else round(v, 3) for v in expected]
        return Verdict(False, f"用例“{label}”：应得到 {want}，你得到 {shown}。{why}", {"kind": "value", "case": label})
    return Verdict(True, "全部用例通过：这正是“BLEU 与句子长度”那张图背后的计算。", {"kind": "pass"})


register(Exercise(
    id="nb01_bleu_by_length",
    notebook=_NB,
    title="代码：按源句子长度分组计算 BLEU",
    prompt="实现 bleu_by_length(lengths, hyps, refs, buckets)：lengths[k] 是第 k 句的源句子长度（英文词数），"
           "hyps / refs 是译文和参考译文（中文字符串）。buckets 是 (lo, hi) 区间的列表（两端都包含）。"
           "返回一个列表：每个区间里所有句子的语料级字级 BLEU (corpus char-BLEU)，用 helpers.metrics.bleu 计算；"
           "没有句子的区间返回 None。",
    solution=bleu_by_length,
    checker=check_bleu_by_length,
    hints=["对每个区间 (lo, hi)，先找出满足 lo <= lengths[k] <= hi 的下标 k。",
           "把这些句子的译文和参考译文分别放进两个列表，调用一次 bleu(hyps_in, refs_in, level='char')——"
           "不要逐句算再平均。",
           "区间里没有句子时，直接 append(None)。"],
))
