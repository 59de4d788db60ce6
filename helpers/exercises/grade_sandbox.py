"""Answers as data, and student functions in a separate process: the trust boundary of ``grade``.

The grader never runs a student's code in its own process and never unpickles anything a student
produced. Three pieces make that so (the recorder lives in ``grade_record``):

- **codec**: ``encode`` turns an answer into plain data (numbers, strings, containers, plain
  tensors; numpy arrays are tagged), ``dumps`` / ``loads`` store it with ``torch.save`` and read it
  back with ``torch.load(weights_only=True)``, which cannot execute code or rebuild a Tensor subclass.
- **recorder** (``grade_record``): ``install_recorder(path)`` runs in the student's kernel (the grader prepends a cell)
  and replaces ``helpers.exercises.check`` with a function that stores each answer in ``path``:
  values as data, functions as their source plus the names they use (imports, helper functions,
  constants). It decides nothing.
- **sandbox**: ``Sandbox(bundle)`` re-creates a recorded function in a child process (this file run
  as a script, where ``helpers.exercises`` cannot be imported) and calls it with a time limit per
  call. The child's replies come back through the codec, so a lying Tensor subclass, a patched
  ``torch.allclose`` or an infinite loop stay on the child's side.

Only the standard library is imported at module level: the child must start without the package.
"""

from __future__ import annotations

import io
import os
import pickle
import select
import struct
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCKED = "helpers.exercises"  # the checkers and reference solutions: never importable in the child

# --- codec ------------------------------------------------------------------------------------


class Unsupported:
    """Stands for a value of a type the codec does not carry (``type(x).__name__`` is kept)."""


def _plain_tensor(x):
    import torch

    with torch._C.DisableTorchFunctionSubclass():  # a subclass's __torch_function__ is not consulted
        return x.as_subclass(torch.Tensor).detach().clone().cpu()


def encode(x, depth: int = 0):
    """``x`` as plain data; anything else becomes ``{"__unsupported__": type name}``."""
    import numpy as np
    import torch

    if depth > 20:
        return {"__unsupported__": "deeply nested"}
    if x is None or type(x) in (bool, int, float, str, complex):
        return x
    if isinstance(x, torch.Tensor):
        return _plain_tensor(x)
    if isinstance(x, np.ndarray) and x.dtype != object:
        return {"__ndarray__": torch.from_numpy(np.array(x, copy=True))}
    if isinstance(x, np.generic) and not isinstance(x, np.object_):
        return x.item()
    if type(x) in (list, tuple, set, frozenset):
        items = [encode(v, depth + 1) for v in x]
        if type(x) in (set, frozenset):
            try:
                return set(items)
            except TypeError:
                return {"__unsupported__": type(x).__name__}
        return items if type(x) is list else tuple(items)
    if type(x) is dict:
        return {"__dict__": [(encode(k, depth + 1), encode(v, depth + 1)) for k, v in x.items()]}
    return {"__unsupported__": type(x).__name__}


def decode(x):
    """Inverse of ``encode``; unsupported values become instances named after their type."""
    if isinstance(x, dict):
        if "__ndarray__" in x:
            return x["__ndarray__"].numpy()
        if "__unsupported__" in x:
            return type(str(x["__unsupported__"]), (Unsupported,), {})()
        if "__dict__" in x:
            return {_hashable(decode(k)): decode(v) for k, v in x["__dict__"]}
    if isinstance(x, list):
        return [decode(v) for v in x]
    if isinstance(x, tuple):
        return tuple(decode(v) for v in x)
    return x


def _hashable(x):
    return tuple(x) if isinstance(x, list) else x


def dumps(obj) -> bytes:
    import torch

    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


def loads(data: bytes):
    """Read what ``dumps`` wrote, refusing any pickled code (``weights_only=True``)."""
    import torch

    return torch.load(io.BytesIO(data), weights_only=True)


# --- sandbox (a child process per recorded function) ---------------------------------------------


def _send(stream, obj_bytes: bytes) -> None:
    stream.write(struct.pack(">Q", len(obj_bytes)) + obj_bytes)
    stream.flush()


def _recv_exact(fd: int, n: int, deadline: float) -> bytes:
    chunks, got = [], 0
    while got < n:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise TimeoutError
        chunk = os.read(fd, n - got)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


class GradingTimeout(Exception):
    """The student's function did not return within the time limit."""


class Sandbox:
    """A recorded function, re-created in a child process; ``sandbox.function`` calls it there."""

    def __init__(self, bundle: dict, call_timeout: float = 10.0, start_timeout: float = 60.0):
        import inspect

        self.call_timeout, self.dead = call_timeout, None
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
                   OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--sandbox"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=str(ROOT),
        )
        _send(self.proc.stdin, pickle.dumps(bundle))
        reply = self._reply(start_timeout)
        if "error" in reply:
            self.dead = reply["error"]
            params = []
        else:
            params = [inspect.Parameter(n, inspect._ParameterKind(k), default=None if d else inspect.Parameter.empty)
                      for n, k, d in reply["params"]]

        def function(*args, **kwargs):
            return self.call(args, kwargs)

        function.__signature__ = inspect.Signature(params)
        function.__name__ = str(bundle.get("name", "answer"))
        self.function = function

    def _reply(self, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        try:
            (n,) = struct.unpack(">Q", _recv_exact(self.proc.stdout.fileno(), 8, deadline))
            return loads(_recv_exact(self.proc.stdout.fileno(), n, deadline))
        except TimeoutError:
            self.close()
            raise GradingTimeout(f"超过 {timeout:g} 秒没有返回 (timed out)：是不是有死循环 (infinite loop)？") from None
        except Exception:
            self.close()
            return {"error": ("RuntimeError", "函数所在的进程意外退出 (the function's process died)")}

    def call(self, args, kwargs):
        if self.dead:
            name, text = self.dead
            raise type(str(name), (Exception,), {})(text)
        _send(self.proc.stdin, pickle.dumps((args, kwargs)))
        reply = self._reply(self.call_timeout)
        if "error" in reply:
            name, text = reply["error"]
            raise type(str(name), (Exception,), {})(text)
        return decode(reply["value"])

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self.dead = self.dead or ("GradingTimeout", "函数已因超时被终止 (stopped after a timeout)")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _BlockExercises:
    """Import hook of the child: the checkers and reference solutions are not importable."""

    def find_spec(self, name, path=None, target=None):
        if name == BLOCKED or name.startswith(BLOCKED + "."):
            raise ImportError(f"评分时不能导入 {name} (not importable while grading)")
        return None


def _child_main() -> None:
    """The child: define the recorded function, then answer calls until the parent hangs up."""
    import inspect

    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
    sys.meta_path.insert(0, _BlockExercises())
    proto_in, proto_out = os.fdopen(os.dup(0), "rb"), os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    import torch

    torch.set_num_threads(1)

    def read():
        header = proto_in.read(8)
        if len(header) < 8:
            raise SystemExit(0)
        return pickle.loads(proto_in.read(struct.unpack(">Q", header)[0]))  # from the grader: trusted

    def error(exc):
        return {"error": (type(exc).__name__, str(exc)[:300])}

    bundle = read()
    namespace = {"__name__": "__student__"}
    try:
        for line in bundle["imports"]:
            exec(line, namespace)
        namespace.update({k: decode(v) for k, v in bundle["data"].items()})
        for source in bundle["sources"]:
            exec(compile(source, "<student>", "exec"), namespace)
        fn = namespace[bundle["name"]]
        params = [(p.name, int(p.kind), p.default is not p.empty) for p in inspect.signature(fn).parameters.values()]
        reply = {"params": params}
    except BaseException as exc:
        reply = error(exc)
    _send(proto_out, dumps(reply))
    if "error" in reply:
        return
    while True:
        args, kwargs = read()
        try:
            reply = {"value": encode(fn(*args, **kwargs))}
        except BaseException as exc:
            reply = error(exc)
        _send(proto_out, dumps(reply))


if __name__ == "__main__" and sys.argv[1:] == ["--sandbox"]:
    _child_main()
