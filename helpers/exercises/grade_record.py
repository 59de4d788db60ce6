"""The recorder of ``grade``: runs in the student's kernel and takes each answer out as data.

``install_recorder(path)`` replaces ``helpers.exercises.check`` (the grader prepends a cell that calls
it) with a function that stores each answer in ``path``, through ``grade_sandbox``'s codec: values
as plain data, functions as their source plus the names they use (imports, helper functions and
classes, constants). It decides nothing: the verdicts are computed by the grader, outside this kernel.
"""

from __future__ import annotations

from pathlib import Path

from helpers.exercises.grade_sandbox import BLOCKED, dumps, encode


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


def install_recorder(path: str) -> None:
    """Replace ``helpers.exercises.check`` by a recorder that writes every answer to ``path``."""
    import inspect

    import helpers.exercises as hx

    answers: dict = {}
    real = hx.EXERCISES

    class Recorded:
        passed, message, details = True, "已记录，由教师评分 (recorded for grading)", {}

        def __bool__(self):
            return True

        def __repr__(self):
            return self.message

    def record(exercise_id, answer):
        exercise_id = str(exercise_id)
        reference = real.get(exercise_id)
        try:
            interned = answer is None or type(answer) in (str, int, bool)  # equal literals are the same object
            if reference is not None and not interned and answer is reference.solution:
                entry = {"kind": "reference"}
            elif callable(answer) and not isinstance(answer, type):
                module = getattr(answer, "__module__", "") or ""
                if module.startswith("helpers"):
                    entry = {"kind": "reference", "module": module}
                else:
                    namespace = dict(getattr(answer, "__globals__", {}))
                    entry = function_bundle(answer, namespace, blocked=(real,))
                    entry["signature"] = str(inspect.signature(answer))
            else:
                entry = {"kind": "value", "value": encode(answer)}
        except Exception as exc:  # an answer we cannot take out is graded as such, not a crash
            entry = {"kind": "unsupported", "reason": f"{type(exc).__name__}: {exc}"[:200]}
        answers[exercise_id] = entry
        Path(path).write_bytes(dumps(answers))
        return Recorded()

    hx.check = record
