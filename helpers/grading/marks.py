"""Verdicts: one recorded answer against the real checker, in the grader's process (functions in a sandbox).

What counts as the student's own work: a value as recorded; a function only if its source is in the
notebook handed in (``_typed``) and it does not call the library's own implementation of its exercise
(``twins``: those are replaced by stand-ins that refuse in the sandbox, ``grading.jail.withhold``).

The answers file is written by the student's kernel, so a function record is data to distrust: it is
graded only when it has exactly the shape the recorder writes (``_malformed``): ``sources`` a list of
texts each found in the notebook, ``imports`` plain ``import a.b as c`` / ``from a.b import c as d``
lines, ``data`` keyed by identifiers. Any other record (a tuple of sources, code among the imports)
is 无法评分 (ungradable, tampered record): nothing of it runs.

Points: ``helpers.exercises.default_points`` (1 per exercise, 2 for multi-part ones); a wrong answer
whose checker reports sub-checks (``details["parts"]``, ``details["passed_parts"]``) gets that share.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from helpers.grading import sandbox
from helpers.grading.submissions import Submission

PASSED, WRONG, UNFINISHED = "通过 (passed)", "未通过 (wrong)", "尚未完成 (not finished yet)"
MISSING, REFERENCE, UNGRADABLE = "未作答 (not attempted)", "交了参考答案 (reference solution)", "无法评分 (ungradable)"
TIMED_OUT = "超时 (timeout)"  # = grading.runner.TIMEOUT; the notebook hit its time limit before this exercise's check(...) ran: not the student's doing
TIMED_OUT_TEXT = ("整本笔记本在运行到这道题之前就超时了 (the notebook hit its time limit before this check ran)；"
                  "不是学生没做：请用更大的 --timeout 重新批改（README：批改）")

REFERENCE_TEXT = "提交的是 helpers 里的现成函数或参考答案，不是自己的解答 (not your own work)"

# The library's own implementations of an exercise's function ("module:attribute"): refused in the
# sandbox, so an answer that calls one is marked 交了参考答案. Besides these, a public function of the
# package with the same name as the reference solution counts (``twins``). Ids not registered are ignored.
LIBRARY_TWINS = {
    "masked_softmax": ("helpers.attention:masked_softmax",),
    "context_vector": ("helpers.attention:context_vector",),
}

_HINT = re.compile(r"\n[^\n]*提示 \d+(?: \(hint \d+\))?：")


@dataclass
class Mark:
    """The verdict on one exercise of one student."""

    verdict: str
    message: str = ""
    answer: str = ""  # short text of the answer, for the summary's "most common wrong answer"
    fraction: float | None = None  # partial credit of a wrong answer (sub-checks passed); None: all or nothing
    out_of: float = 1.0  # the exercise's points (``helpers.exercises.default_points``)

    @property
    def points(self) -> float:
        if self.verdict == PASSED:
            return self.out_of
        if self.verdict == WRONG and self.fraction:
            return round(self.out_of * min(max(self.fraction, 0.0), 1.0), 2)
        return 0.0


def format_points(value: float) -> str:
    """Points as a report shows them: ``2`` rather than ``2.0``, ``1.33`` for a share."""
    value = round(float(value), 2)
    return str(int(value)) if value == int(value) else f"{value:g}"


def _identifier_path(text: str) -> bool:
    return bool(text) and all(part.isidentifier() for part in text.split("."))


def _plain_import(line) -> bool:
    """``import a.b as c`` or ``from a.b import c as d``, and nothing else (what ``function_bundle`` writes)."""
    if not isinstance(line, str) or "\n" in line or ";" in line:
        return False
    words = line.split(" ")
    if len(words) == 4 and words[0] == "import" and words[2] == "as":
        return _identifier_path(words[1]) and words[3].isidentifier()
    if len(words) == 6 and words[0] == "from" and words[2] == "import" and words[4] == "as":
        return _identifier_path(words[1]) and words[3].isidentifier() and words[5].isidentifier()
    return False


def _malformed(entry: dict) -> str | None:
    """Why a function record is not what the recorder writes (None: it is)."""
    sources, imports, data, name = (entry.get(k) for k in ("sources", "imports", "data", "name"))
    if type(sources) is not list or not sources or not all(type(t) is str for t in sources):
        return "sources"
    if type(imports) is not list or not all(_plain_import(line) for line in imports):
        return "imports"
    if type(data) is not dict or not all(type(k) is str and k.isidentifier() for k in data):
        return "data"
    if type(name) is not str or not name.isidentifier():
        return "name"
    return None


def _short(value, limit: int = 60) -> str:
    if isinstance(value, float):
        text = f"{value:.4g}"
    elif hasattr(value, "shape") and hasattr(value, "tolist"):
        text = f"{type(value).__name__}{list(value.shape)}"
    else:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _normal(text: str) -> str:
    return "\n".join(line.strip() for line in str(text).splitlines() if line.strip())


def _typed(source: str, cells) -> bool:
    """Whether ``source`` (a recorded function's text) is in one of the cells handed in."""
    source = source[len("_lambda_ = "):] if source.startswith("_lambda_ = ") else source
    wanted = _normal(source)
    return bool(wanted) and any(wanted in _normal(cell) for cell in cells)


def twins(exercise_id: str) -> tuple[str, ...]:
    """The library's own implementations of this exercise's function, as "module:attribute"."""
    import sys

    from helpers.exercises import EXERCISES

    found = list(LIBRARY_TWINS.get(exercise_id, ()))
    ex = EXERCISES.get(exercise_id)
    solution = ex.__dict__.get("solution") if ex is not None else None
    name = getattr(solution, "__name__", None) if callable(solution) else None
    for module in sorted(m for m in sys.modules if m.startswith("helpers.") and not m.startswith(("helpers.exercises", "helpers.grading", "helpers.tools"))):
        value = getattr(sys.modules[module], name, None) if name else None
        if callable(value) and getattr(value, "__module__", None) == module and f"{module}:{name}" not in found:
            found.append(f"{module}:{name}")
    return tuple(found)


def _library_source(exercise_id: str) -> set[str]:
    import importlib
    import inspect

    from helpers.exercises import EXERCISES

    texts = set()
    objects = [importlib.import_module(m).__dict__.get(a) for m, a in (t.split(":") for t in twins(exercise_id))]
    ex = EXERCISES.get(exercise_id)
    objects.append(ex.__dict__.get("solution") if ex is not None else None)
    for obj in objects:
        try:
            texts.add(_normal(inspect.getsource(obj)))
        except (TypeError, OSError):
            continue
    return texts


def mark(exercise_id: str, entry: dict | None, *, call_timeout: float, cells=None, jail=None, deny=(),
         timed_out: bool = False) -> Mark:
    """Check one recorded answer with the real checker, in this process (functions in a sandbox).

    ``cells``: the code cells handed in; a function whose source is not among them was not typed by
    the student (e.g. ``linecache`` filled with the library's source), and is not graded as theirs.
    ``timed_out``: the notebook ran out of time, so a missing record is 超时, not 未作答."""
    from helpers.exercises import check, reset_hints  # reset: each student starts from hint 1

    if entry is None:
        if timed_out:
            return Mark(TIMED_OUT, TIMED_OUT_TEXT)
        return Mark(MISSING, "没有运行这个练习的 check(...) (no check call recorded)")
    if not isinstance(entry, dict):  # the kernel wrote something else into the answers file
        return Mark(UNGRADABLE, f"记录被改动过 (tampered record): {type(entry).__name__}")
    kind = entry.get("kind")
    if kind == "reference":
        return Mark(REFERENCE, REFERENCE_TEXT, "参考答案")
    if kind == "unsupported":
        return Mark(UNGRADABLE, f"答案无法取出 (answer cannot be taken out): {str(entry.get('reason', ''))[:200]}")
    reset_hints(exercise_id)
    if kind == "value":
        try:
            answer = sandbox.decode(entry.get("value"))
        except sandbox.AnswerTooLarge as exc:
            return Mark(UNGRADABLE, str(exc), "答案太大")
        result = check(exercise_id, answer)
        shown = _short(answer)
    elif kind == "function":
        bad = _malformed(entry)
        if bad:
            return Mark(UNGRADABLE, f"记录被改动过 (tampered record): {bad}", "记录被改动过")
        sources = entry["sources"]
        if cells is not None and not all(_typed(t, cells) for t in sources):
            library = _library_source(exercise_id)
            if any(_normal(t) in library for t in sources):
                return Mark(REFERENCE, REFERENCE_TEXT, "参考答案")
            return Mark(WRONG, "函数的源代码不在你交的笔记本里 (the function's source is not in the notebook handed in)",
                        "源代码不在笔记本里")
        try:
            with sandbox.Sandbox(entry, call_timeout=call_timeout, jail=jail, traps=twins(exercise_id), deny=deny) as box:
                if box.dead:  # the recorded source does not define the function outside the notebook
                    name, text = box.dead
                    return Mark(WRONG, f"你的函数在评分环境里无法重建 (cannot re-create your function): {name}: {text}",
                                name)
                result = check(exercise_id, box.function)
                used = box.reference_used
        except sandbox.GradingTimeout as exc:
            return Mark(WRONG, str(exc), "超时 (timeout)")
        if used:
            return Mark(REFERENCE, f"{REFERENCE_TEXT}：调用了 {', '.join(sorted(used))}", "参考答案")
        shown = ""
    else:
        return Mark(UNGRADABLE, f"未知的记录 (unknown record) {str(kind)[:60]!r}")
    message = _HINT.split(str(result.message))[0]  # the diagnosis without the progressive hints
    details = getattr(result, "details", {}) or {}
    if result.passed:
        return Mark(PASSED, message, shown)
    if details.get("kind") == "unfinished" or message.startswith("尚未完成"):
        return Mark(UNFINISHED, message, "None")
    return Mark(WRONG, message, shown or message.splitlines()[0].split("：")[0][:60],  # the diagnosis
                _share(details))


def _share(details: dict) -> float | None:
    """The share of sub-checks passed, as the checker reports it (``parts`` / ``passed_parts``)."""
    parts, passed = details.get("parts"), details.get("passed_parts")
    if type(parts) is int and type(passed) is int and parts > 0 and 0 < passed < parts:
        return passed / parts
    return None


def mark_submission(sub: Submission, columns, *, call_timeout, jail, deny) -> dict:
    from helpers.exercises import EXERCISES, default_points

    marks = {}
    for exercise_id in (c for c in columns if EXERCISES[c].notebook == sub.notebook):
        try:
            marks[exercise_id] = mark(exercise_id, sub.answers.get(exercise_id), call_timeout=call_timeout,
                                      cells=sub.cells, jail=jail, deny=deny, timed_out=sub.status == TIMED_OUT)
        except Exception as exc:  # one odd record must not stop the batch
            marks[exercise_id] = Mark(UNGRADABLE, f"{type(exc).__name__}: {str(exc)[:120]}")
        marks[exercise_id].out_of = default_points(EXERCISES[exercise_id])
    return marks


def max_score(columns) -> float:
    """The assignment's maximum: the registry's points of its exercises (never anything a student wrote)."""
    from helpers.exercises import EXERCISES, default_points

    return sum(default_points(EXERCISES[c]) for c in columns)


