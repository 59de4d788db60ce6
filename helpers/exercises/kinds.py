"""The answer kinds of the reading and choice exercises, so that a notebook's module is mostly data.

* ``number_answer``  a number read off a plot or a table: within ``tol`` of the reference, or one of
                     the known wrong readings (``Trap``: a percentage, another model's value, 1 − x)
* ``choice_answer``  a word, a name or a title out of a known set: the expected one, a known wrong
                     one with its reason, a near-miss with a suggestion (which uses up no hint), or anything else
* ``predict_and_explain`` a prediction made before the reveal cell runs, with the letter of its reason:
                     a number checker and a choice checker, both must pass
* ``reason_answer``  the explanation of a prediction: one letter out of the options shown in the
                     prompt, the right one possibly decided by what the run revealed
* ``function_answer`` a function run on cases: first the two questions of every code exercise, finished
                     yet (None) and a function at all (``expect_function``), then the exercise's own cases

Message templates are ``str.format`` strings, or callables; the fields are ``value`` (the number
read), ``expected``, ``side`` (偏大 / 偏小), ``answer`` (what the student typed) and ``norm`` (it
normalised).
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from helpers.exercises.engine import NOT_FINISHED, Verdict, read_number

# Names spelled the way the book spells them, mapped to the spelling the checkers compare.
NAME_ALIASES = {"巴赫达瑙": "bahdanau"}

Template = str | Callable[..., str]


def _say(template: Template, **fields) -> str:
    return template(**fields) if callable(template) else template.format(**fields)


def side_of(value: float, expected: float) -> str:
    return "偏大 (too large)" if value > expected else "偏小 (too small)"


# --------------------------------------------------------------------------- numbers
@dataclass(frozen=True)
class Trap:
    """A known wrong reading: ``test(value, expected)`` true -> the verdict ``message``."""

    test: Callable[[float, float], bool]
    message: Template
    mistake: str | None = None


def near(target: float | Callable[[], float | None], tol: float, message: Template, mistake: str | None = None) -> Trap:
    """The reading ``target`` (a number, or computed on use; None skips the trap), within ``tol``."""

    def test(value, expected):
        where = target() if callable(target) else target
        return where is not None and abs(value - where) <= tol

    return Trap(test, message, mistake)


def percent(tol: float, message: Template, mistake: str | None = None) -> Trap:
    """The reference written as a percentage (e.g. 38.5 for 0.385)."""
    return Trap(lambda value, expected: value > 1 and abs(value / 100 - expected) <= tol, message, mistake)


def outside(lo: float, hi: float, message: Template, mistake: str | None = None) -> Trap:
    return Trap(lambda value, expected: not lo <= value <= hi, message, mistake)


def number_answer(
    expected: float | Callable[[], float | None],
    tol: float,
    *,
    unfinished: str,
    passed: Template,
    wrong: Template = "数值不对：{value:g} {side}。",
    traps: Iterable[Trap] = (),
    missing: Callable[[BaseException | None], Verdict] | None = None,
    vector_tip: str = "",
) -> Callable[[object], Verdict]:
    """A checker of a number: within ``tol`` of ``expected`` (a number, or computed on first check).

    ``missing(exc)`` is the verdict when the reference cannot be computed (``exc`` None when it is
    None, e.g. metrics.json absent). ``traps`` are tried in order after the pass test.
    """
    traps = tuple(traps)

    def checker(answer) -> Verdict:
        value, problem = read_number(answer, unfinished, vector_tip)
        if problem:
            return problem
        try:
            reference = expected() if callable(expected) else expected
        except Exception as exc:  # noqa: BLE001 - a missing model must not raise into the notebook
            return missing(exc) if missing else Verdict(False, f"无法计算参考答案 (cannot compute the reference)：{exc}",
                                                         {"kind": "error"})
        if reference is None:
            return missing(None) if missing else Verdict(False, "无法计算参考答案 (no reference)。", {"kind": "error"})
        fields = {"value": value, "expected": reference, "side": side_of(value, reference)}
        if abs(value - reference) <= tol:
            return Verdict(True, _say(passed, **fields), {"kind": "pass"})
        for trap in traps:
            if trap.test(value, reference):
                details = {"kind": "value"} if trap.mistake is None else {"kind": "value", "mistake": trap.mistake}
                return Verdict(False, _say(trap.message, **fields), details)
        return Verdict(False, _say(wrong, **fields), {"kind": "value"})

    return checker


# --------------------------------------------------------------------------- choices
def plain(text: str) -> str:
    """Lower case, no white space, no surrounding quotes, the book's transliterations mapped."""
    text = "".join(text.split()).lower().strip("'\"‘’“”")
    for alias, name in NAME_ALIASES.items():
        text = text.replace(alias, name)
    return text


def _loose(text: str) -> str:
    return "".join(ch for ch in text if ch not in "-_. ")


def suggest(norm: str, options: Iterable[str]) -> str | None:
    """The option a near-miss meant: the same but for separators ('luong dot'), or a close spelling."""
    options = list(options)
    for option in options:
        if _loose(option) == _loose(norm) and option != norm:
            return option
    close = difflib.get_close_matches(norm, options, n=1, cutoff=0.75)
    return close[0] if close else None


def choice_answer(
    expected: str | Callable[[], str | None],
    *,
    unfinished: str,
    passed: Template,
    other: Template,
    wrong: dict[str, Template] | None = None,
    options: Iterable[str] | Callable[[], Iterable[str]] = (),
    wrong_default: Template | None = None,
    normalise: Callable[[str], str] = plain,
    prefix: bool = False,
    before: Callable[[object], Verdict | None] | None = None,
    after: Callable[[str, str], Verdict | None] | None = None,
    missing: Callable[[BaseException | None], Verdict] | None = None,
    example: str = "",
) -> Callable[[object], Verdict]:
    """A checker of a word or a name out of a known set.

    Normalised with ``normalise`` (default ``plain``), the answer is ``expected`` (a pass), a key of
    ``wrong`` (its reason), another of ``options`` (``wrong_default``), a near-miss of one of them (a
    suggestion, kind ``near_miss``: no hint is used up) or ``other``. ``prefix``: an answer that
    starts with a name counts as that name ('bahdanau et al.'). ``before(answer)`` may settle odd
    answers first; ``after(answer, norm)`` settles what the table does not know, before ``other``.
    """
    wrong = wrong or {}

    def matches(norm: str, name: str) -> bool:
        return norm.startswith(name) if prefix else norm == name

    def checker(answer) -> Verdict:
        if answer is None:
            return Verdict(False, f"{NOT_FINISHED}：{unfinished}", {"kind": "unfinished"})
        if before is not None:
            found = before(answer)
            if found is not None:
                return found
        if not isinstance(answer, str):
            return Verdict(False, f"请填入一个字符串 (a string){example}，而不是 {type(answer).__name__}。",
                           {"kind": "type"})
        try:
            target = expected() if callable(expected) else expected
        except Exception as exc:  # noqa: BLE001 - a missing model must not raise into the notebook
            return missing(exc) if missing else Verdict(False, f"无法计算参考答案：{exc}", {"kind": "error"})
        if target is None:
            return missing(None) if missing else Verdict(False, "无法计算参考答案 (no reference)。", {"kind": "error"})
        norm = normalise(answer)
        fields = {"answer": answer, "norm": norm, "expected": target}
        if matches(norm, normalise(target)):
            return Verdict(True, _say(passed, **fields), {"kind": "pass"})
        for name, why in wrong.items():
            if matches(norm, name):
                return Verdict(False, _say(why, **fields), {"kind": "value"})
        known = [normalise(o) for o in (options() if callable(options) else options)]
        if wrong_default is not None and norm in known:
            return Verdict(False, _say(wrong_default, **fields), {"kind": "value"})
        if after is not None:
            found = after(answer, norm)
            if found is not None:
                return found
        meant = suggest(norm, [normalise(target), *wrong, *known])
        if meant is not None:
            return Verdict(False, f"{answer!r} 差一点对上一个可选的名字：你是不是想写 (did you mean) '{meant}'？"
                                  "请按这个写法再填一次。", {"kind": "near_miss", "suggestion": meant})
        return Verdict(False, _say(other, **fields), {"kind": "value"})

    return checker


# --------------------------------------------------------------------------- explanations
def _letter(answer) -> str | None:
    text = "".join(str(answer).split()).upper().strip("'\"‘’“”()（）.。")
    return text if len(text) == 1 and text.isalpha() else None


def reason_answer(
    correct: str | Callable[[], str | None],
    options: dict[str, str],
    *,
    passed: Template = "解释正确：{text}",
    why_not: dict[str, Template] | None = None,
    missing: Callable[[BaseException | None], Verdict] | None = None,
) -> Callable[[object], Verdict]:
    """A checker of the explanation that goes with a prediction: a letter of ``options`` (letter -> text).

    ``correct`` is the right letter, or computed on use from the revealed result (a measurement that
    came out the other way makes another explanation the right one). ``why_not`` says, per wrong
    letter, what is wrong with it; the fields are ``answer``, ``text`` (the chosen option) and
    ``expected``.
    """
    why_not = why_not or {}
    letters = "、".join(f"'{k}'" for k in options)

    def checker(answer) -> Verdict:
        if answer is None:
            return Verdict(False, f"{NOT_FINISHED}：请填入你选的解释的字母，{letters} 之一。", {"kind": "unfinished"})
        letter = _letter(answer)
        if letter is None or letter not in options:
            return Verdict(False, f"请填一个字母 (one letter)：{letters} 之一，你填的是 {answer!r}。", {"kind": "type"})
        try:
            target = correct() if callable(correct) else correct
        except Exception as exc:  # noqa: BLE001 - a missing model must not raise into the notebook
            return missing(exc) if missing else Verdict(False, f"无法计算参考答案：{exc}", {"kind": "error"})
        if target is None:
            return missing(None) if missing else Verdict(False, "无法计算参考答案 (no reference)。", {"kind": "error"})
        fields = {"answer": letter, "text": options[letter], "expected": target}
        if letter == target:
            return Verdict(True, _say(passed, **fields), {"kind": "pass"})
        why = why_not.get(letter)
        text = _say(why, **fields) if why is not None else f"解释 {letter} 与揭晓的结果不符 (does not fit the result)。"
        return Verdict(False, text, {"kind": "value", "mistake": letter})

    return checker


# --------------------------------------------------------------------------- functions
def expect_function(answer, signature: str, exercise_id: str = "") -> Verdict | None:
    """None while the answer is a function; else the verdict 尚未完成 (None) or 请传入一个函数."""
    if answer is None:
        return Verdict(False, f"{NOT_FINISHED}：请先实现 {signature}，再运行检查。", {"kind": "unfinished"})
    if callable(answer):
        return None
    how = f"写 check('{exercise_id}', 函数名)，函数名后面不要加括号。" if exercise_id else ""
    return Verdict(False, f"请传入一个函数 (a function) {signature}，而不是 {type(answer).__name__}。{how}",
                   {"kind": "type"})


def function_answer(signature: str, exercise_id: str):
    """Decorate ``body(answer) -> Verdict`` (the cases of a code exercise) with ``expect_function``."""

    def wrap(body: Callable[[object], Verdict]) -> Callable[[object], Verdict]:
        @functools.wraps(body)
        def checker(answer) -> Verdict:
            return expect_function(answer, signature, exercise_id) or body(answer)

        return checker

    return wrap


# --------------------------------------------------------------------------- predictions
def predict_and_explain(
    prediction: Callable[[object], Verdict],
    reason: Callable[[object], Verdict],
    *,
    example: str,
) -> Callable[[object], Verdict]:
    """A checker of ``(prediction, reason)`` (a tuple, a list or {"prediction": …, "reason": …}).

    The student commits to both before running the cell that reveals the measurement; the verdict
    passes when ``prediction`` and ``reason`` (two checkers, e.g. ``number_answer`` and
    ``choice_answer``) both pass, and says which of the two is wrong.
    """

    def checker(answer) -> Verdict:
        if answer is None:
            return Verdict(False, f"{NOT_FINISHED}：请填入 (预测, 理由)，{example}。", {"kind": "unfinished"})
        if type(answer) is dict and set(answer) == {"prediction", "reason"}:
            answer = (answer["prediction"], answer["reason"])
        if type(answer) not in (tuple, list) or len(answer) != 2:
            return Verdict(False, f"请填入两项 (prediction, reason)：{example}；收到的是 (got) "
                                  f"{type(answer).__name__}。", {"kind": "type"})
        guess, why = answer
        if guess is None or why is None:
            missing = "预测 (prediction)" if guess is None else "理由 (reason)"
            return Verdict(False, f"{NOT_FINISHED}：还没有填{missing}。", {"kind": "unfinished"})
        first = prediction(guess)
        if not first.passed:
            return Verdict(False, first.message, dict(first.details, part="prediction", parts=2, passed_parts=0))
        second = reason(why)
        if not second.passed:
            return Verdict(False, f"预测对了，但{second.message}", dict(second.details, part="reason", parts=2,
                                                                        passed_parts=1))
        return Verdict(True, f"{first.message}；{second.message}", {"kind": "pass"})

    return checker
