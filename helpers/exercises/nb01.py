"""Exercises of notebook 01_information_bottleneck (9.10 intro): BLEU against source length.

* ``nb01_read_bleu``      (prediction, then a run) the char-BLEU of the no-attention model on the first
                          clause of each ``long`` sentence (cut at the first comma), next to its score on
                          whole ``long`` sentences
* ``nb01_read_bleu_why``  (reasoning) what such a result would show: the difficulty comes from length
* ``nb01_blind_s0``       (prediction, then a run) none's char-BLEU on test with s_0 set to zeros: s_0 is
                          its only view of the source (reveal: ``helpers.exercises.reveals.blind_bleu``)

The predicted answer is computed from the shipped ``none`` model on first use (``LazyExercise``).
"""

from __future__ import annotations

from helpers.analysis.probes import FIRST_CLAUSES, first_clause_bleu, first_clauses  # noqa: F401 (re-exported)
from helpers.checkpoint import load_metrics  # shared loader; notebooks 01 and 06 import it from here
from helpers.exercises import Exercise, LazyExercise, register
from helpers.exercises.engine import Verdict
from helpers.exercises.kinds import Trap, number_answer, percent, reason_answer

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
    "A": "困难来自长度：一个分句和训练句子一样短，装得进 s_0；整句 long 太长，装不下。",
    "B": "困难来自 long 的词语和搭配：这些词语本身就难译。",
    "C": "困难来自截断：截出来的分句不是完整的句子，模型译不好。",
}


register(Exercise(
    id="nb01_read_bleu_why",
    notebook=_NB,
    title="推理：第一个分句的分数能说明什么？",
    prompt="如果揭晓的结果是：none 在第一个分句上的 char-BLEU 接近它在同样长度的 test 句子上的分数，远高于整句 long。"
           "这个结果支持哪一个解释？" + "；".join(f"{k}. {v}" for k, v in CLAUSE_REASONS.items()),
    solution="A",
    checker=reason_answer("A", CLAUSE_REASONS, why_not={
        "B": "分句里的词语和搭配与整句 long 完全一样：如果难在词语，分句的分数也应该和整句一样低。",
        "C": "如果截断本身有害，分句的分数应该比整句还低，而不是接近 test 上的分数。"}),
    hints=["分句和整句 long 用的是同样的词语；两者不同的只有长度。",
           "只改变一个因素（长度），分数就大幅回升：困难来自哪里？",
           "再想想：如果困难来自截断，分句的分数应该往哪个方向变？"],
))


# --------------------------------------------------------------------------- nb01_blind_s0
BLIND_OPTIONS = {
    "A": "和原来差不多：解码器自己就会写这些句子，不太需要 s_0。",
    "B": "大幅下降：s_0 是 none 的解码器看到原文的唯一途径，清零以后它只能写出和这句原文无关的常见句子，"
         "只剩常见的字和标点碰巧与参考译文重合。",
    "C": "不变：none 的解码器每一步都会重新读一遍源句子。",
}

register(Exercise(
    id="nb01_blind_s0",
    notebook=_NB,
    title="先预测，再运行：把 s_0 清零，none 还能译出什么？",
    prompt="把编码器交给解码器的 s_0 换成全零向量，其余不变，再让 none 翻译 test 句子。它的 char-BLEU 会怎样？"
           + "；".join(f"{k}. {v}" for k, v in BLIND_OPTIONS.items()),
    solution="B",
    checker=reason_answer("B", BLIND_OPTIONS, why_not={
        "A": "解码器的参数里只有训练时学到的中文知识：原文是哪一句，它只能从 s_0 里知道。",
        "C": "回看第 1 节的图：none 的编码器和解码器之间只有一支箭头，也就是 s_0。"}),
    hints=["第 1 节：none 的解码器从哪里得到源句子的信息？",
           "s_0 清零以后，所有句子在解码器看来都一样：它会对每一句写出什么？",
           "为什么分数不一定正好是 0？想想“。”“了”“的”这些常见的字。"],
))
