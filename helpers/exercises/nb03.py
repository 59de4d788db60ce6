"""Exercises of notebook 03_idea (9.10.2, Fig. 9-22): reading attention rows of a trained model.

* ``nb03_uniform_student``  (prediction, then a run) does luong-concat (the model 03 picks for Fig. 9-22)
                        still output 学生 when the weights of that step are made uniform? (``nb03_uniform_student_why``: what the uniform
                        edit can and cannot show; the right option follows from reasoning, whatever
                        the run gives: uniform weights still leave student 1/S of the context)
* ``nb03_peak_source``  (code) ``peak_source_word(translation, target_word)``: the source word with the
                        largest weight in the row of ``target_word`` (Fig. 9-22 read off automatically)
"""

from __future__ import annotations

import numpy as np

from helpers.decode import Translation
from helpers.exercises import Exercise, LazyExercise, register
from helpers.exercises.engine import NOT_FINISHED, Verdict, call_answer, exception_text
from helpers.exercises.kinds import choice_answer, function_answer, plain, reason_answer

_NB = "03_idea"


# --------------------------------------------------------------------------- nb03_uniform_student
SENTENCE = "i am a student ."
WORD = "学生"
MODEL = "luong-concat"   # the model section 2 of 03_idea picks by its rule
_YES = {"是", "会", "yes", "y", "还会", "仍然", "会的", "true"}
_NO = {"否", "不", "不会", "no", "n", "false"}


def uniform_outcome() -> tuple[bool, float, str] | None:
    """At the step of the chosen model that outputs 学生 with its weights made uniform: (still 学生?, p(学生), arg-max)."""
    import helpers
    from helpers.analysis.probes import step_outputs, uniform

    model = helpers.load_pretrained(MODEL)
    t = helpers.translate(model, SENTENCE)
    if WORD not in t.tgt_tokens:
        return None
    k = t.tgt_tokens.index(WORD)
    probs, _ = step_outputs(model, t.src_tokens, t.tgt_tokens, edit=uniform, at=k + 1)
    top = model.tgt_vocab.itos[int(probs[k].argmax())]
    return top == WORD, float(probs[k, model.tgt_vocab.stoi[WORD]]), top


def _still() -> str | None:
    found = uniform_outcome()
    return None if found is None else ("是" if found[0] else "否")


def _yes_no(text: str) -> str:
    norm = plain(text).strip("。.!！?？")
    return "是" if norm in _YES else ("否" if norm in _NO else norm)


def _missing(exc) -> Verdict:
    return Verdict(False, f"无法加载预训练模型 {MODEL}：{exc}。请先运行 make pretrained。", {"kind": "model_missing"})


check_uniform_student = choice_answer(
    _still,
    unfinished="请填入 '是' 或 '否'。",
    example="，例如 '是'",
    normalise=_yes_no,
    passed=lambda answer, norm, expected: ("预测正确：权重摊平以后，模型" + ("仍然输出“学生”。" if expected == "是"
                                                                    else "不再输出“学生”。")),
    wrong_default="和揭晓的结果不同：运行揭晓的单元格，看这一步输出了什么。",
    options=["是", "否"],
    other="请只填 '是'（还会输出“学生”）或 '否'（不会），你填的是 {answer!r}。",
    missing=_missing,
)


register(LazyExercise(
    id="nb03_uniform_student",
    notebook=_NB,
    solve=_still,
    title="预测：把“学生”那一步的权重摊平，还会输出“学生”吗？",
    prompt=f"对 {SENTENCE!r}，{MODEL} 输出“学生”那一步的权重几乎全在 “student” 上。把这一步的权重换成均匀分布"
           "（每个英文词 1/S，其余步骤不动），模型还会输出“学生”吗？填 '是' 或 '否'，再运行揭晓的单元格。",
    checker=check_uniform_student,
    hints=["对照第 4 节的表：“是”那一步摊平权重以后怎样？“学生”和“是”有什么不同？",
           "读入“名”以后，解码器自己的状态能猜出下一个名词是哪一个吗？句子里只有 “student” 说了是学生。",
           "摊平以后，student 的权重从接近 1 变成 1/S：c_t 里还剩多少“学生”的信息？运行揭晓的单元格核对。"],
))


UNIFORM_REASONS = {
    "A": "摊平以后 student 仍占 1/S 的权重（这一句 S = 5，即五分之一），c_t 里还留着 student 的一份信息，"
         "所以摊平这一种换法不能说明解码器不需要注意力；要知道解码器的状态自己知不知道“学生”，"
         "得把 student 的份额整个拿走：去掉峰值（student 的权重改成 0），或者令 c_t = 0。",
    "B": "摊平以后模型仍输出“学生”，就说明解码器读入“名”以后，自己的隐含状态已经知道下一个词是“学生”，不需要注意力。",
    "C": "均匀分布的 c_t 和原来的 c_t 完全一样，所以什么都不会变。",
    "D": "摊平以后模型不再输出“学生”，就说明注意力必须几乎全部落在 student 上，模型才能译对。",
}

# Decided by reasoning, not by the outcome: only A draws a conclusion that the uniform edit can support.
UNIFORM_REASON = "A"


register(LazyExercise(
    id="nb03_uniform_student_why",
    notebook=_NB,
    solve=lambda: UNIFORM_REASON,
    title="推理：摊平权重这个实验能说明什么？",
    prompt="揭晓的单元格会打印三种换法（去掉峰值、均匀分布、全零）下这一步的输出。选出推理正确的一条："
           + "；".join(f"{k}. {v}" for k, v in UNIFORM_REASONS.items()),
    checker=reason_answer(UNIFORM_REASON, UNIFORM_REASONS, passed="推理正确：均匀分布并没有拿走 student 的信息，"
                          "只有去掉峰值和令 c_t = 0 才检验解码器的状态自己知不知道“学生”。", why_not={
        "B": "摊平以后 student 仍占 1/S 的权重，c_t 里还有它的信息：仍输出“学生”不能说明解码器不需要注意力。"
             "要检验这一点，得把 student 的份额整个拿走（去掉峰值，或 c_t = 0）。",
        "C": "c_t 是各 h̄_s 的加权平均：权重一变，c_t 就变（第 4 节“是”那一步的概率也变了）。",
        "D": "摊平只试了一种权重（每个词 1/S）：它说明五分之一不够，却说明不了“必须几乎全部”；"
             "student 占一半时会怎样，这个实验没有回答。"}),
    hints=["均匀分布时，student 这个位置还分到多少权重？c_t 里还有没有它的信息？",
           "c_t 是各 h̄_s 的加权平均：权重一变，c_t 就变。",
           "想知道解码器的状态自己知不知道“学生”，就得让 c_t 里完全没有 student 的信息：哪两种换法做到了这一点？"],
))


# --------------------------------------------------------------------------- nb03_peak_source
def peak_source_word(translation, target_word):
    """Reference: the source token with the largest weight in the first row of ``target_word``, or None."""
    if target_word not in translation.tgt_tokens:
        return None
    j = translation.tgt_tokens.index(target_word)
    row = np.asarray(translation.attention)[j, : len(translation.src_tokens)]  # drop the <eos> column
    return translation.src_tokens[int(np.argmax(row))]


def _translation(src, tgt, attention) -> Translation:
    tgt = list(tgt)
    return Translation(src_tokens=list(src), tgt_tokens=tgt, text="".join(tgt),
                       attention=np.asarray(attention, dtype=np.float32))


def _cases():
    """(label, translation, target_word, expected, trap) — small hand-written attention matrices."""
    src = ["i", "am", "a", "student", "."]
    tgt = ["我", "是", "一", "名", "学生", "。"]
    # rows: 我 是 一 名 学生 。 <eos>; columns: i am a student . <eos>
    book = [
        [0.90, 0.04, 0.02, 0.02, 0.01, 0.01],
        [0.10, 0.80, 0.04, 0.03, 0.02, 0.01],
        [0.02, 0.05, 0.85, 0.05, 0.02, 0.01],
        [0.02, 0.03, 0.40, 0.52, 0.02, 0.01],  # the measure word 名: spread over "a" and "student"
        [0.01, 0.02, 0.07, 0.88, 0.01, 0.01],
        [0.01, 0.01, 0.01, 0.02, 0.90, 0.05],
        [0.01, 0.01, 0.01, 0.01, 0.06, 0.90],
    ]
    yield "课本例子 (the book's example)，输出“是”", _translation(src, tgt, book), "是", "am", "plain"
    # The <eos> column holds the largest weight of the row: it is not a source word.
    eos_max = [row[:] for row in book]
    eos_max[4] = [0.01, 0.02, 0.05, 0.40, 0.02, 0.50]
    yield "最后一列 <eos> 的权重最大", _translation(src, tgt, eos_max), "学生", "student", "eos"
    # Reordering: the time adverb moves to the front; the row of 昨天 peaks on the last word.
    src2 = ["tom", "ate", "an", "apple", "yesterday", "."]
    tgt2 = ["汤姆", "昨天", "吃", "了", "一", "个", "苹果", "。"]
    att2 = np.full((9, 7), 0.01)
    for j, i in enumerate([0, 4, 1, 1, 2, 3, 3, 5, 6]):
        att2[j, i] = 0.9
    yield "调序 (reordering)：输出“昨天”", _translation(src2, tgt2, att2), "昨天", "yesterday", "plain"
    yield "目标词不在输出里 (word not in the output)", _translation(src2, tgt2, att2), "咖啡", None, "missing"
    # The word occurs twice: the first occurrence counts.
    src3 = ["i", "like", "tea", ",", "but", "he", "likes", "coffee", "."]
    tgt3 = ["我", "喜欢", "茶", "，", "但是", "他", "喜欢", "咖啡", "。"]
    att3 = np.full((10, 10), 0.01)
    for j, i in enumerate([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]):
        att3[j, i] = 0.9
    yield "“喜欢”出现两次，取第一次", _translation(src3, tgt3, att3), "喜欢", "like", "twice"


@function_answer("peak_source_word(translation, target_word)", "nb03_peak_source")
def check_peak_source(answer) -> Verdict:
    for label, tr, word, expected, trap in _cases():
        out, exc = call_answer(answer, tr, word)
        if exc is not None:
            extra = ""
            if isinstance(exc, IndexError):
                extra = "提示：attention 比 src_tokens 多一列 (<eos>)，arg-max 可能落在那一列上，先截取前 len(src_tokens) 列。"
            return Verdict(False, f"函数运行出错 (your function raised) {exception_text(exc)}（用例：{label}）。{extra}",
                           {"kind": "error", "case": label})
        if out is None and expected is None:
            continue
        if out is None:
            return Verdict(False, f"{NOT_FINISHED}：函数返回了 None（用例：{label}）。", {"kind": "unfinished"})
        if expected is None:
            return Verdict(False, f"用例“{label}”：'{word}' 不在输出里，应返回 None，你返回了 {out!r}。",
                           {"kind": "value", "case": label})
        if not isinstance(out, str):
            what = "一个下标 (an index)" if isinstance(out, (int, np.integer)) else type(out).__name__
            return Verdict(False, f"应返回源词本身（字符串, a str），例如 'am'，而不是{what}：{out!r}（用例：{label}）。",
                           {"kind": "type", "case": label})
        if out == expected:
            continue
        att = np.asarray(tr.attention)
        j = tr.tgt_tokens.index(word)
        column = int(np.argmax(att[: len(tr.tgt_tokens), j])) if j < att.shape[1] else -1
        if trap == "eos" or out == "<eos>":
            why = "最后一列是源句末尾的 <eos>，不是源词：只在前 len(src_tokens) 列里找最大值。"
        elif 0 <= column < len(tr.src_tokens) and out == tr.src_tokens[column]:
            why = "你似乎取了一列 (a column) 而不是一行：attention[j, i] 的第 j 行才是输出第 j 个词时的权重。"
        elif trap == "twice":
            why = "同一个词出现多次时，用它第一次出现的位置 (tgt_tokens.index(word))。"
        else:
            why = "先用 tgt_tokens.index(target_word) 找到行号 j，再对 attention[j] 取 arg-max。"
        return Verdict(False, f"用例“{label}”：应得到 {expected!r}，你得到 {out!r}。{why}",
                       {"kind": "value", "case": label})
    return Verdict(True, "全部用例通过：你能从注意力矩阵里自动读出每个输出词对齐的源词了。", {"kind": "pass"})


register(Exercise(
    id="nb03_peak_source",
    notebook=_NB,
    title="代码：找出某个输出词最关注的源词",
    prompt="实现 peak_source_word(translation, target_word)：translation 是 helpers.translate 的结果，"
           "attention[j, i] 是输出第 j 个词时对第 i 个源词的权重（可能多出最后一行 <eos> 步和最后一列源句 <eos>，它们不属于任何词）。返回输出 target_word "
           "（第一次出现）那一步权重最大的源词（字符串）；target_word 不在输出里时返回 None。",
    solution=peak_source_word,
    checker=check_peak_source,
    hints=["行号：j = translation.tgt_tokens.index(target_word)；先判断 target_word 在不在 tgt_tokens 里。",
           "这一行是 translation.attention[j]，但最后一列属于 <eos>：只取前 len(translation.src_tokens) 列。",
           "i = int(np.argmax(row))，返回 translation.src_tokens[i]。"],
))
