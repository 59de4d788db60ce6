"""The 练习 (exercises) at the end of each notebook, checked offline with progressive Chinese hints.

What the room holds:

* ``engine``      Verdict, Case, ``run_cases`` (runs a code answer on fixed cases), ``read_number``
* ``kinds``       the answer kinds: ``number_answer``, ``choice_answer``, ``expect_function``
* ``limits``      the time limit on a student's code (超时 after ``limits.TIME_LIMIT`` seconds)
* ``nb01`` … ``nb07``, ``nb05_code``   one module of exercises per notebook, mostly data

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

from helpers.exercises import nb05_code as checkers
from helpers.exercises.engine import Verdict
from helpers.exercises.kinds import choice_answer, number_answer
from helpers.exercises.limits import TimeLimit, time_limit_message

__all__ = [
    "EXERCISES",
    "CheckResult",
    "Exercise",
    "Verdict",
    "check",
    "choice_checker",
    "number_checker",
    "register",
    "reset_hints",
]


@dataclass
class Exercise:
    """One exercise: where it lives, what it asks, its reference answer and its checker."""

    id: str
    notebook: str  # e.g. "05_computation"
    title: str  # Chinese
    prompt: str  # Chinese, with the signature for code exercises
    solution: Any  # the reference callable or value
    checker: Callable[[Any], Verdict]
    hints: list[str] = field(default_factory=list)  # from gentle to revealing


@dataclass
class CheckResult:
    """The verdict shown under a notebook cell: ✅ 通过 / ❌ 未通过 plus the message."""

    passed: bool
    message: str
    details: dict = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        head = "✅ 通过 (passed)" if self.passed else "❌ 未通过 (not passed)"
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
            text += f"\n💡 提示 {n} (hint {n})：{hint}"
        if shown and count >= len(exercise.hints):
            text += ("\n（已显示全部提示 (all hints shown)。按最后一条提示一步一步算一遍；"
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


# --- the seven code exercises of notebook 05 ---------------------------------------------------

_NB = "05_computation"
_CODE = [
    ("masked_softmax", "带掩码的 softmax (masked softmax)",
     "实现 masked_softmax(scores, mask)：scores 形状 [..., S]，mask 为 bool（True 表示可以关注），形状与 scores 相同。"
     "返回 [..., S] 的注意力权重：被遮住的位置权重为 0，其余位置之和为 1；整行都被遮住时返回全 0（不能出现 NaN）。Eq. (9-37)",
     ["softmax 在最后一维 (dim=-1) 上做：每个目标位置在所有源位置上的权重之和为 1。",
      "先把被遮住的分数设为 -inf：scores.masked_fill(~mask, float('-inf'))，再 torch.softmax(..., dim=-1)。",
      "整行都是 -inf 时 softmax 得到 NaN；最后再 weights.masked_fill(~mask, 0.0)，被遮住的位置（包括整行）都变成 0。"]),
    ("dot_score", "点积打分 (dot score)",
     "实现 dot_score(query, keys)：query [B, T, D]，keys [B, S, D]，返回分数 [B, T, S]，"
     "score[b, t, s] = query[b, t] · keys[b, s]。Eq. (9-40) dot",
     ["每个查询 (query) 要和每个键 (key) 做点积，结果是 T × S 的矩阵。",
      "批量矩阵乘法：query @ keys.transpose(1, 2)，[B, T, D] @ [B, D, S]。",
      "不要除以 √D（那是缩放点积 scaled dot），也不要做 softmax。"]),
    ("general_score", "一般形式打分 (general score)",
     "实现 general_score(query, keys, W_a)：query [B, T, Dq]，keys [B, S, Dk]，W_a [Dq, Dk]，"
     "返回 [B, T, S]，score = h_tᵀ W_a h̄_s。Eq. (9-40) general",
     ["先把查询变换到键的空间：query @ W_a 的形状是 [B, T, Dk]。",
      "再与键做点积：(query @ W_a) @ keys.transpose(1, 2)。",
      "注意 W_a 不要转置：qᵀ W_a k 中 W_a 的行对应 query 的维度 Dq。"]),
    ("additive_score", "加法形式打分 (additive score)",
     "实现 additive_score(query, keys, W_q, W_k, v_a)：query [B, T, Dq]，keys [B, S, Dk]，W_q [H, Dq]，W_k [H, Dk]，"
     "v_a [H]，返回 [B, T, S]，score = v_aᵀ tanh(W_q h_t + W_k h̄_s)。Eq. (9-40) additive (Bahdanau)",
     ["分别变换：query @ W_q.T 得到 [B, T, H]，keys @ W_k.T 得到 [B, S, H]。",
      "用广播相加：[B, T, 1, H] + [B, 1, S, H] -> [B, T, S, H]，再取 tanh。",
      "最后与 v_a 做点积：torch.tanh(...) @ v_a 得到 [B, T, S]。"]),
    ("context_vector", "上下文向量 (context vector)",
     "实现 context_vector(weights, values)：weights [B, T, S]（每行之和为 1 或全 0），values [B, S, Dv]，"
     "返回 [B, T, Dv]，c_t = Σ_s α_ts h̄_s。Eq. (9-38)",
     ["上下文向量是值 (values) 的加权和，权重是注意力权重 α。",
      "对源位置 s 求和：一个批量矩阵乘法就够了，weights @ values。",
      "不要再做 softmax，也不要除以 S：权重已经归一化了。"]),
    ("attention_vector", "注意力向量 (attention vector)",
     "实现 attention_vector(context, h, W_c)：context [B, T, H]，h [B, T, H]，W_c [H, 2H]，"
     "返回 [B, T, H]，h̃_t = tanh(W_c [c_t; h_t])。Eq. (9-39)",
     ["[c_t; h_t] 表示把两个向量首尾拼接 (concatenate)，上下文向量在前。",
      "torch.cat([context, h], dim=-1) 得到 [B, T, 2H]，乘 W_c.T 得到 [B, T, H]。",
      "一个小例子 (a worked example)：H = 1，c = [0.5]，h = [1.0]，W_c = [[2, -1]]：[c; h] = [0.5, 1.0]，"
      "W_c [c; h] = 2·0.5 − 1·1.0 = 0，tanh(0) = 0。代码里也是这三步：拼接、乘 W_c 的转置、tanh。"]),
    ("hard_attention", "硬注意力 (hard attention)",
     "实现 hard_attention(scores, mask)：scores [B, T, S]，mask [B, S]（bool，True 表示可以关注），返回 one-hot 权重 "
     "[B, T, S]：每个目标位置只关注未被遮住的位置中分数最大的那一个；整句都被遮住时返回全 0。",
     ["硬注意力 = 在未被遮住的位置里取 arg-max，权重是 one-hot。",
      "mask[:, None, :] 把 [B, S] 对齐到 [B, T, S]；先 masked_fill(~mask[:, None, :], -inf) 再 argmax(dim=-1)。",
      "torch.nn.functional.one_hot(index, S).float() 得到 one-hot；再乘 mask[:, None, :] 让全被遮住的行变成 0。"]),
]  # fmt: skip

for _id, _title, _prompt, _hints in _CODE:
    register(
        Exercise(
            id=_id,
            notebook=_NB,
            title=_title,
            prompt=_prompt,
            solution=getattr(checkers, _id),
            checker=getattr(checkers, f"check_{_id}"),
            hints=_hints,
        )
    )


# Register the notebook-specific exercises (helpers/exercises/nb01.py … nb07.py); kept last on purpose:
# each of those modules imports ``Exercise`` and ``register`` from this package.
def _register_notebook_modules() -> None:
    import importlib

    for n in range(1, 8):
        importlib.import_module(f"{__name__}.nb{n:02d}")


_register_notebook_modules()
