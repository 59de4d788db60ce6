"""Exercises of notebook 03_idea (9.10.2, Fig. 9-22): reading attention rows of a trained model.

* ``nb03_peak_word``    (prediction) which English word gets the most weight while the model outputs 学生
* ``nb03_peak_source``  (code) ``peak_source_word(translation, target_word)``: the source word with the
                        largest weight in the row of ``target_word`` (Fig. 9-22 read off automatically)
"""

from __future__ import annotations

import numpy as np

from helpers.decode import Translation
from helpers.exercises import Exercise, register
from helpers.exercises.engine import NOT_FINISHED, Verdict, call_answer, exception_text
from helpers.exercises.kinds import choice_answer, function_answer

_NB = "03_idea"


# --------------------------------------------------------------------------- nb03_peak_word
_WRONG_WORDS = {
    "学生": "要回答的是**英文**源词 (an English source word)，而不是模型输出的中文词。",
    "a": "“a” 对应的是“一”和量词“名”(measure word)，不是“学生”。看热力图中“学生”那一行。",
    "am": "“am” 和“是”有关，但题目问的是“学生”那一行。",
    "i": "“i” 对应的是“我”。请看热力图中“学生”那一行颜色最深的一列。",
    ".": "句号对应的是“。”。请看热力图中“学生”那一行颜色最深的一列。",
    "students": "源句子里只有单数的那个词 (the exact source token)。",
}


check_peak_word = choice_answer(
    "student",
    unfinished="请填入一个英文单词，例如 'am'。",
    passed="正确：输出“学生”时，权重几乎全部落在 “student” 上——两个词是一一对齐的 (aligned)。",
    wrong={word: f"不对：{{answer!r}}。{why}" for word, why in _WRONG_WORDS.items()},
    other="不对：{answer!r} 不是源句子 'i am a student .' 里的词 (not a source token)。请从 i / am / a / student / . 中选。",
)


register(Exercise(
    id="nb03_peak_word",
    notebook=_NB,
    title="预测：输出“学生”时看哪个英文词？",
    prompt="对 'i am a student .'，模型输出“学生”这一步，注意力权重最大的英文源词是哪一个？填一个字符串，例如 'am'。",
    solution="student",
    checker=check_peak_word,
    hints=["热力图的每一行是一个解码步骤：找到纵轴上“学生”那一行。",
           "那一行里颜色最深（数值最大）的那一列，就是答案；它和“学生”意思相同。",
           "照着做一遍 (worked)：“我”那一行最深的一格在 “i” 列，所以“我”对齐到 “i”。对“学生”那一行做同样的事，"
           "填那一列上方的英文词。"],
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
