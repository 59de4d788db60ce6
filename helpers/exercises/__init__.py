"""The 练习 (exercises) at the end of each notebook, checked offline with progressive Chinese hints.

What the room holds:

* ``engine``      Verdict, Case, ``run_cases`` (runs a code answer on fixed cases), ``read_number``
* ``kinds``       the answer kinds: ``number_answer``, ``choice_answer``, ``function_answer``
* ``limits``      the time limit on a student's code (超时 after ``limits.TIME_LIMIT`` seconds)
* ``nb01`` … ``nb07c``  one module of exercises per notebook (``nb05a``, ``nb05b`` for 05a / 05b, ``nb07a`` …
  ``nb07c`` for 07a–07c), mostly
  data (prompts, hints, known mistakes); ``nb05_code`` and ``nb05_steps`` hold the checkers of the code
  exercises of 05a and 05b
* ``reveals``     what the reveal cells of the predict-then-run exercises compute (kept in the grader's
  private copy, where the rest of this package is withheld)

The teachers' grade command is ``helpers.grading``.

What a reader imports: ``from helpers.exercises import EXERCISES, check``. ``check(exercise_id,
answer)`` never raises, whatever the answer does (an exception, ``SystemExit``, an endless loop);
it returns a ``CheckResult`` whose ``.passed`` / ``.message`` give the verdict in Chinese with the
English term. Each failure reveals one more hint (``reset_hints()`` starts over); the answers
themselves are in notebooks/solutions/. ``EXERCISES`` maps an id to an ``Exercise``; to add one,
call ``register(Exercise(...))`` with any ``checker(answer) -> Verdict``.
"""

from __future__ import annotations

import difflib
import html
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from helpers.exercises.engine import NOT_FINISHED, Verdict
from helpers.exercises.kinds import choice_answer, number_answer
from helpers.exercises.limits import TimeLimit, time_limit_message

__all__ = [
    "EXERCISES",
    "CheckResult",
    "Exercise",
    "LazyExercise",
    "Verdict",
    "check",
    "choice_checker",
    "default_points",
    "number_checker",
    "register",
    "register_code",
    "reset_hints",
]


@dataclass
class Exercise:
    """One exercise: where it lives, what it asks, its reference answer and its checker."""

    id: str
    notebook: str  # e.g. "05a_computation_steps"
    title: str  # Chinese
    prompt: str  # Chinese, with the signature for code exercises
    solution: Any  # the reference callable or value
    checker: Callable[[Any], Verdict]
    hints: list[str] = field(default_factory=list)  # from gentle to revealing
    points: float | None = None  # what the grader gives for it; None: ``default_points`` (see there)


def default_points(exercise: Exercise) -> float:
    """An exercise's points for ``python -m helpers.grading``: its ``points`` field, else 1.

    Multi-part exercises say so at registration: a code exercise (``register_code``: its checker runs
    several test cases) and a prediction with its reason (``kinds.predict_and_explain``) are worth 2.
    Partial credit comes from the checker's verdict: ``details["parts"]`` sub-checks of which
    ``details["passed_parts"]`` passed (``engine.run_cases``: the cases before the first failure;
    ``predict_and_explain``: the prediction right, the reason wrong)."""
    return float(exercise.points) if exercise.points is not None else 1.0


class LazyExercise(Exercise):
    """An Exercise whose ``.solution`` is computed on first use by ``solve()`` (from a trained model, the
    shipped metrics or the corpus), so that ``import helpers.exercises`` stays fast."""

    def __init__(self, *, solve, **fields):
        self._solve, self._value = solve, None
        super().__init__(solution=None, **fields)

    @property
    def solution(self):
        if self._value is None:
            self._value = self._solve()
        return self._value

    @solution.setter
    def solution(self, value):  # dataclass __init__ assigns the placeholder None here
        self._value = value


@dataclass
class CheckResult:
    """The verdict shown under a notebook cell: √ 通过 / × 未通过 plus the message.

    √ and × are glyphs of the bundled font (helpers/viz/fonts), so they render without an emoji font;
    the HTML view also colours the verdict (green / red).
    """

    passed: bool
    message: str
    details: dict = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        # the English term once, on the first line: an unfinished answer reads "× 尚未完成 (not finished yet)：…"
        # rather than "× 未通过 (not passed)：尚未完成 (not finished yet)：…", and hint lines carry no English
        if not self.passed and self.message.startswith(NOT_FINISHED):
            return f"× {self.message}"
        head = "√ 通过 (passed)" if self.passed else "× 未通过 (not passed)"
        return f"{head}：{self.message}"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        color = "#1a7f37" if self.passed else "#cf222e"
        return (
            f'<div style="border-left:4px solid {color};padding:4px 10px;white-space:pre-wrap;'
            f'font-family:inherit">{html.escape(str(self))}</div>'
        )


EXERCISES: dict[str, Exercise] = {}
_FAILURES: dict[str, int] = {}


def register(exercise: Exercise) -> Exercise:
    """Add (or replace) an exercise in ``EXERCISES``."""
    EXERCISES[exercise.id] = exercise
    return exercise


CODE_POINTS = 2.0  # a code exercise: several test cases, partial credit for the cases passed


def register_code(notebook: str, table) -> None:
    """Register code exercises from rows (id, checker module, title, prompt, hints): the module holds the
    reference ``<id>`` and its checker ``check_<id>``."""
    for exercise_id, module, title, prompt, hints in table:
        register(Exercise(id=exercise_id, notebook=notebook, title=title, prompt=prompt,
                          solution=getattr(module, exercise_id), checker=getattr(module, f"check_{exercise_id}"),
                          hints=hints, points=CODE_POINTS))


def reset_hints(exercise_id: str | None = None) -> None:
    """Forget the failure counts (all exercises, or one), so hints start again from hint 1."""
    if exercise_id is None:
        _FAILURES.clear()
    else:
        _FAILURES.pop(exercise_id, None)


def _unknown(exercise_id) -> CheckResult:
    valid = sorted(EXERCISES)
    close = difflib.get_close_matches(str(exercise_id), valid, n=1)
    guess = f"你是不是想写 (did you mean) '{close[0]}'？" if close else ""
    return CheckResult(
        False,
        f"未知的练习编号 (unknown exercise id) {exercise_id!r}。{guess}可用的编号 (valid ids)：{', '.join(valid)}。",
        {"kind": "unknown_id"},
    )


# Verdict kinds that use up no hint: the answer is not finished, or a near-miss got a suggestion.
_FREE = ("unfinished", "near_miss")


def _run_checker(exercise: Exercise, answer) -> Verdict:
    try:
        return exercise.checker(answer)
    except TimeLimit:
        return Verdict(False, time_limit_message(), {"kind": "time_limit"})
    except Exception as exc:  # a checker bug must not stop the notebook
        return Verdict(False, f"检查器内部错误 (internal checker error): {type(exc).__name__}: {exc}", {})
    except BaseException as exc:  # noqa: BLE001 - SystemExit / KeyboardInterrupt that reached the checker
        return Verdict(False, f"检查被中断 (checking interrupted)：{type(exc).__name__}。请再运行一次这个单元格。",
                       {"kind": "interrupted"})


def check(exercise_id: str, answer) -> CheckResult:
    """Check ``answer`` for exercise ``exercise_id``; never raises."""
    try:
        exercise = EXERCISES.get(exercise_id) if isinstance(exercise_id, str) else None
        if exercise is None:
            return _unknown(exercise_id)
        verdict = _run_checker(exercise, answer)
        details = dict(verdict.details, exercise_id=exercise_id)
        if verdict.passed or details.get("kind") in _FREE:
            return CheckResult(verdict.passed, verdict.message, details)
        count = _FAILURES[exercise_id] = _FAILURES.get(exercise_id, 0) + 1
        shown = exercise.hints[:count]
        text = verdict.message
        for n, hint in enumerate(shown, start=1):
            text += f"\n提示 {n}：{hint}"
        if shown and count >= len(exercise.hints):
            text += ("\n（已显示全部提示。按最后一条提示一步一步算一遍；"
                     "参考答案在 notebooks/solutions/ 的同名笔记本里。）")
        details.update(failures=count, hints_shown=len(shown))
        return CheckResult(False, text, details)
    except BaseException as exc:  # noqa: BLE001 - last line of defence
        return CheckResult(False, f"检查时出错 (error while checking): {type(exc).__name__}: {exc}", {})


# --- checkers for reading exercises ------------------------------------------------------------


def number_checker(
    expected: float, tol: float = 0.01, what: str = "数值 (number)"
) -> Callable[[Any], Verdict]:
    """A checker accepting a number within ``tol`` of ``expected`` (absolute)."""
    return number_answer(expected, tol, unfinished=f"请填入{what}。", passed=f"{what}正确：{{value:g}}。",
                         wrong=f"{what}不对：{{value:g}} {{side}}。")


def choice_checker(
    expected: str, accept: tuple[str, ...] = (), what: str = "答案 (answer)"
) -> Callable[[Any], Verdict]:
    """A checker accepting ``expected`` or any of ``accept`` (compared without spaces, case-insensitive)."""
    norm = lambda x: "".join(str(x).split()).lower()  # noqa: E731
    valid = {norm(expected), *(norm(a) for a in accept)}
    return choice_answer(expected, unfinished=f"请填入{what}。", passed=f"{what}正确：{{answer}}。",
                         other=f"{what}不对：{{answer!r}}。", normalise=lambda x: norm(expected) if norm(x) in valid else norm(x))


# Register the exercises of each notebook (helpers/exercises/nb01.py … nb07c.py); kept last on purpose:
# each of those modules imports ``Exercise`` and ``register`` from this package.
NOTEBOOK_MODULES = ("nb01", "nb02", "nb03", "nb04", "nb05a", "nb05b", "nb06", "nb07a", "nb07b", "nb07c")


def _register_notebook_modules() -> None:
    import importlib

    for name in NOTEBOOK_MODULES:
        importlib.import_module(f"{__name__}.{name}")


_register_notebook_modules()
