"""The recorder of ``grade``: runs in the student's kernel and takes each answer out as data.

``install_recorder(path)`` replaces ``helpers.exercises.check`` (the grader prepends a cell that calls
it) with a function that stores each answer in ``path``, through ``grading.sandbox``'s codec: values
as plain data, functions as their source plus the names they use (imports, helper functions and
classes, constants). It decides nothing: the verdicts are computed by the grader, outside this kernel.
"""

from __future__ import annotations

from pathlib import Path

from helpers.grading.sandbox import BLOCKED, dumps, encode


def _code_names(code) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= _code_names(const)
    return names


def _methods(cls) -> list:
    import inspect

    return [f for f in (getattr(v, "__func__", v) for v in vars(cls).values()) if inspect.isfunction(f)]


def _class_source(cls) -> str:
    """A class's source via its methods' cell (``inspect.getsource`` fails for classes in a notebook)."""
    import ast
    import linecache

    for method in _methods(cls):
        text = "".join(linecache.getlines(method.__code__.co_filename))
        if not text:
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
                return ast.get_source_segment(text, node)
    raise OSError(f"找不到类 {cls.__name__} 的源代码 (class source not found)")


def _source(obj) -> str:
    import ast
    import inspect
    import textwrap

    try:
        text = textwrap.dedent(inspect.getsource(obj))
    except (OSError, TypeError):
        if not inspect.isclass(obj):
            raise
        text = _class_source(obj)
    if getattr(obj, "__name__", "") == "<lambda>":  # the line holds more than the lambda
        tree = ast.parse(text)
        lam = next(node for node in ast.walk(tree) if isinstance(node, ast.Lambda))
        return f"_lambda_ = {ast.get_source_segment(text, lam)}"
    return text


def function_bundle(fn, namespace: dict, blocked: tuple = ()) -> dict:
    """The source of ``fn`` and of everything it names from ``namespace``, as data.

    Objects in ``blocked`` (e.g. ``EXERCISES``) are re-imported from ``helpers.exercises`` in the
    child, which refuses that import.
    """
    import inspect
    import types

    imports, data, sources, seen = [], {}, [], set()

    def visit(obj):
        if id(obj) in seen:
            return
        seen.add(id(obj))
        codes = [obj.__code__] if inspect.isfunction(obj) else [f.__code__ for f in _methods(obj)]
        for name in sorted(set().union(*map(_code_names, codes)) if codes else ()):
            if name not in namespace or name in seen_names:
                continue
            seen_names.add(name)
            value = namespace[name]
            if any(value is b for b in blocked):
                imports.append(f"from {BLOCKED} import EXERCISES as {name}")
            elif isinstance(value, types.ModuleType):
                imports.append(f"import {value.__name__} as {name}")
            elif (inspect.isfunction(value) or inspect.isclass(value)) and value.__module__ == "__main__":
                visit(value)
            elif inspect.isfunction(value) or inspect.isclass(value) or inspect.isbuiltin(value):
                imports.append(f"from {value.__module__} import {value.__qualname__} as {name}")
            else:
                data[name] = encode(value)
        if inspect.isfunction(obj) and obj.__closure__:
            for name, cell in zip(obj.__code__.co_freevars, obj.__closure__):
                data[name] = encode(cell.cell_contents)
        sources.append(_source(obj))

    seen_names: set[str] = set()
    visit(fn)
    name = "_lambda_" if fn.__name__ == "<lambda>" else fn.__name__
    return {"kind": "function", "name": name, "imports": imports, "data": data, "sources": sources}


class Withheld:
    """Stands for a reference answer while grading: the answer key is not in the graded kernel.

    Handing it in (or a copy: ``copy``/``deepcopy`` give the same object) is recorded as 交了参考答案;
    using it in a computation raises."""

    __slots__ = ("exercise_id",)

    def __init__(self, exercise_id: str):
        object.__setattr__(self, "exercise_id", exercise_id)

    def _refuse(self, *args, **kwargs):
        raise TypeError("参考答案在评分时不可用 (the reference solution is withheld while grading)")

    __call__ = __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = _refuse
    __rtruediv__ = __pow__ = __neg__ = __getitem__ = __iter__ = __len__ = __float__ = __int__ = _refuse
    __index__ = __array__ = __setattr__ = __getstate__ = __reduce_ex__ = _refuse

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __repr__(self):
        return "<参考答案在评分时不可用 (withheld while grading)>"


class WithheldExercise:
    """What ``EXERCISES[id]`` is in a graded kernel: where the exercise lives, without its key."""

    def __init__(self, exercise_id: str, notebook: str, title: str):
        self.id, self.notebook, self.title, self.prompt, self.hints = exercise_id, notebook, title, "", []
        self.solution = self.checker = Withheld(exercise_id)

    def __repr__(self):
        return f"WithheldExercise({self.id!r}, {self.notebook!r})"


class _Recorded:
    passed, message, details = True, "已记录，由教师评分 (recorded for grading)", {}

    def __bool__(self):
        return True

    def __repr__(self):
        return self.message


_STATE: dict = {"path": None, "answers": {}, "revealed": set()}  # revealed: see helpers.exercises.reveals


def _entry(answer) -> dict:
    import inspect

    if isinstance(answer, Withheld):
        return {"kind": "reference"}
    if callable(answer) and not isinstance(answer, type):
        module = getattr(answer, "__module__", "") or ""
        if module.startswith("helpers"):
            return {"kind": "reference", "module": module}
        import helpers.exercises as hx

        entry = function_bundle(answer, dict(getattr(answer, "__globals__", {})), blocked=(hx.EXERCISES,))
        entry["signature"] = str(inspect.signature(answer))
        return entry
    return {"kind": "value", "value": encode(answer)}


def recorder_check(exercise_id, answer):
    """``check`` in a graded kernel: store the answer as data for the grader; decide nothing.

    After the exercise's reveal has answered (``helpers.exercises.reveals``), the answer recorded
    before it stays: a prediction is what was handed in before the measurement was shown."""
    exercise_id = str(exercise_id)
    if exercise_id in _STATE.get("revealed", ()) and exercise_id in _STATE["answers"]:
        return _Recorded()
    try:
        entry = _entry(answer)
    except Exception as exc:  # an answer we cannot take out is graded as such, not a crash
        entry = {"kind": "unsupported", "reason": f"{type(exc).__name__}: {exc}"[:200]}
    _STATE["answers"][exercise_id] = entry
    if _STATE["path"]:
        Path(_STATE["path"]).write_bytes(dumps(_STATE["answers"]))
    return _Recorded()


def install_recorder(path: str) -> None:
    """Make ``helpers.exercises.check`` the recorder, writing every answer to ``path``."""
    import helpers.exercises as hx

    _STATE["path"] = path
    hx.check = recorder_check
