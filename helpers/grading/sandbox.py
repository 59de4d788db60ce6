"""Answers as data, and student functions in a separate process: the trust boundary of ``grade``.

The grader never runs a student's code in its own process and never unpickles anything a student
produced. Three pieces make that so (the recorder lives in ``grading.record``):

- **codec**: ``encode`` turns an answer into plain data (numbers, strings, containers, plain
  tensors; numpy arrays are tagged), ``dumps`` / ``loads`` store it with ``torch.save`` and read it
  back with ``torch.load(weights_only=True)``, which cannot execute code or rebuild a Tensor subclass.
- **recorder** (``grading.record``): ``install_recorder(path)`` runs in the student's kernel (the grader prepends a cell)
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
NOT_IN_CHILD = (BLOCKED, "helpers.grading")  # ... nor the grader itself

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


MAX_FILE = 32 << 20  # bytes of one answers file or one reply of a sandbox child
MAX_NODES = 1_000_000  # containers and scalars visited while decoding (shared sub-lists count every time)
MAX_NUMEL = 20_000_000  # tensor elements in one answer (a stride-0 view can claim any number)
MAX_CHARS = 4_000_000  # characters of text in one answer (one string shared many times counts every time)


class AnswerTooLarge(ValueError):
    """A recorded answer would take more memory than any exercise needs."""


def _too_large(what: str) -> AnswerTooLarge:
    return AnswerTooLarge(f"答案太大 (answer too large)：{what}，比任何练习需要的都大得多，不予评分。")


def decode(x, budget: list | None = None):
    """Inverse of ``encode``; unsupported values become instances named after their type.

    ``budget`` = [nodes left, tensor elements left, characters left]; running out raises
    ``AnswerTooLarge``, so a small file of shared nested lists (2**40 nodes once expanded), one string
    referenced 100,000 times (400 MB once printed) or a huge stride-0 tensor is refused."""
    import torch

    budget = [MAX_NODES, MAX_NUMEL, MAX_CHARS] if budget is None else budget
    budget[0] -= 1
    if budget[0] < 0:
        raise _too_large(f"超过 {MAX_NODES} 个元素 (items)")
    if isinstance(x, (str, bytes)):
        budget[2] -= len(x)
        if budget[2] < 0:
            raise _too_large(f"文字超过 {MAX_CHARS} 个字符 (characters)")
        return x
    if isinstance(x, torch.Tensor):
        budget[1] -= x.numel()
        if budget[1] < 0:
            raise _too_large(f"张量超过 {MAX_NUMEL} 个数 (tensor elements)")
        return x
    if isinstance(x, dict):
        if "__ndarray__" in x:
            return decode(x["__ndarray__"], budget).numpy()
        if "__unsupported__" in x:
            return type(str(x["__unsupported__"])[:60], (Unsupported,), {})()
        if "__dict__" in x:
            return {_hashable(decode(k, budget)): decode(v, budget) for k, v in x["__dict__"]}
        return {decode(k, budget): decode(v, budget) for k, v in x.items()}
    if isinstance(x, list):
        return [decode(v, budget) for v in x]
    if isinstance(x, tuple):
        return tuple(decode(v, budget) for v in x)
    if isinstance(x, (set, frozenset)):
        return type(x)(decode(v, budget) for v in x)
    return x


def _hashable(x):
    return tuple(x) if isinstance(x, list) else x


def dumps(obj) -> bytes:
    import torch

    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


def loads(data: bytes):
    """Read what ``dumps`` wrote, refusing any pickled code (``weights_only=True``) and any file that
    would expand in memory: at most ``MAX_FILE`` bytes, every zip entry stored, not deflated."""
    import zipfile

    import torch

    if len(data) > MAX_FILE:
        raise _too_large(f"答案文件 {len(data) >> 20} MB (answers file)")
    try:
        entries = zipfile.ZipFile(io.BytesIO(data)).infolist()
    except zipfile.BadZipFile as exc:
        raise ValueError(f"答案文件不是 torch.save 的格式 (not a torch.save file)：{exc}") from None
    if len(entries) > 10_000 or any(e.compress_type != zipfile.ZIP_STORED for e in entries) \
            or sum(e.file_size for e in entries) > MAX_FILE:
        raise _too_large("答案文件里有压缩过的或过大的内容 (compressed or oversized entries)")
    return torch.load(io.BytesIO(data), weights_only=True)


def read_answers(path) -> tuple[dict, str]:
    """The answers file a notebook's kernel wrote, bounded before anything is read: its size is checked
    first (a symlink is not followed), then every record is decoded once against one budget for the
    whole file (``decode``), and a record over it becomes ``{"kind": "unsupported"}`` with the reason.
    Returns (answers by exercise id, a problem with the file as a whole or "")."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return {}, ""
    except OSError as exc:
        return {}, f"{type(exc).__name__}"
    try:
        size = os.fstat(fd).st_size
        if size > MAX_FILE:
            return {}, str(_too_large(f"答案文件 {size >> 20} MB (answers file)"))
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_FILE + 1)
    finally:
        os.close(fd)
    try:
        raw = loads(data)
    except Exception as exc:  # not a torch.save file, compressed, pickled code
        return {}, str(exc)[:300]
    if not isinstance(raw, dict):
        return {}, ""
    answers, budget = {}, [MAX_NODES, MAX_NUMEL, MAX_CHARS]
    for key, entry in list(raw.items())[:1000]:
        if not isinstance(key, str) or len(key) > 200:
            continue
        try:
            _bounded_record(entry, budget)
            answers[key] = entry
        except AnswerTooLarge as exc:
            answers[key] = {"kind": "unsupported", "reason": str(exc)}
    return answers, ""


def _bounded_record(entry, budget: list) -> None:
    """Decode what ``grading.marks`` will read of one record, against ``budget`` (raises ``AnswerTooLarge``)."""
    if not isinstance(entry, dict):
        decode(entry, budget)
        return
    for key, value in entry.items():
        decode(key, budget)
        if key == "data" and isinstance(value, dict):
            for name, item in value.items():
                decode(name, budget)
                decode(item, budget)
        else:
            decode(value, budget)


# --- the marking time limit ----------------------------------------------------------------------

_MARKING_DEADLINE: list[float] = []  # time.monotonic() by which the current notebook's marking must end


class GradingTimeout(Exception):
    """The student's function did not return within the time limit."""


class MarkingTimeLimit(GradingTimeout):
    """The checks of one notebook together ran past their overall limit (``marking_limit``)."""


MARKING_TEXT = "这本笔记本的批改时间用完了 (marking time limit)：其余的函数没有运行"


class marking_limit:  # noqa: N801 - used as a context manager, like a function
    """``with marking_limit(seconds):`` every call into a sandbox inside it shares one deadline: each
    call gets at most what is left, and once nothing is left a sandbox is not even started
    (``MarkingTimeLimit``). Without it, only the per-call limit applies."""

    def __init__(self, seconds: float):
        self.seconds = float(seconds)

    def __enter__(self):
        _MARKING_DEADLINE.append(time.monotonic() + self.seconds)
        return self

    def __exit__(self, *exc):
        _MARKING_DEADLINE.pop()


def _time_left(timeout: float) -> tuple[float, bool]:
    """(seconds this wait may take, whether the marking deadline is what limits it)."""
    if not _MARKING_DEADLINE:
        return timeout, False
    left = min(_MARKING_DEADLINE) - time.monotonic()
    if left <= 0:
        raise MarkingTimeLimit(MARKING_TEXT)
    return (left, True) if left < timeout else (timeout, False)


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


class Sandbox:
    """A recorded function, re-created in a child process; ``sandbox.function`` calls it there.

    The child starts from a fresh private folder (``grading.jail``: the package's code without
    ``helpers.exercises``, the guard, limits, another user / bubblewrap where available). ``traps``
    names the library's own implementations of the exercise ("module:attribute"); in the child each is
    replaced by a function that refuses, and ``reference_used`` says whether the answer called one.
    """

    def __init__(self, bundle: dict, call_timeout: float = 10.0, start_timeout: float = 60.0, *,
                 jail=None, traps: tuple = (), deny: tuple = ()):
        import inspect

        from helpers.grading.jail import Isolation

        self.call_timeout, self.dead, self.reference_used = call_timeout, None, set()
        _time_left(start_timeout)  # nothing left of the marking time: do not even start
        self._own_jail = jail is None
        self.jail = jail or Isolation(use_bwrap=False)
        self.work = self.jail.private(f"child-{os.getpid()}-{id(self)}")
        self.jail.snapshot.write(self.work / "lib", code_only=True, traps=tuple(traps))
        (self.work / "child.py").write_bytes(self.jail.snapshot.child)
        self.jail.hand_over(self.work)
        guard = self.jail.guard_rules(self.work, deny)
        env = self.jail.env(self.work, guard, {"OMP_NUM_THREADS": "1"})
        cmd = self.jail.prefix(self.work, env, "child") + [sys.executable, str(self.work / "child.py"), "--sandbox"]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     cwd=str(self.work), env=None if self.jail.posix else env,
                                     start_new_session=self.jail.posix)
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
        try:
            timeout, by_marking = _time_left(timeout)
        except MarkingTimeLimit:
            self.close()
            self.dead = ("MarkingTimeLimit", MARKING_TEXT)
            raise
        deadline = time.monotonic() + timeout
        try:
            (n,) = struct.unpack(">Q", _recv_exact(self.proc.stdout.fileno(), 8, deadline))
            if n > MAX_FILE:
                raise _too_large(f"返回值 {n >> 20} MB (return value)")
            reply = loads(_recv_exact(self.proc.stdout.fileno(), n, deadline))
            if not isinstance(reply, dict):
                raise TypeError("reply")
            self.reference_used |= {str(r) for r in reply.get("reference", ()) if isinstance(r, str)}
            return reply
        except TimeoutError:
            self.close()
            if by_marking:
                self.dead = ("MarkingTimeLimit", MARKING_TEXT)
                raise MarkingTimeLimit(MARKING_TEXT) from None
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
        import shutil

        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, 9)
            except (AttributeError, OSError):
                self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.work, ignore_errors=True)
        if self._own_jail:
            self.jail.close()
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
        if any(name == blocked or name.startswith(blocked + ".") for blocked in NOT_IN_CHILD):
            raise ImportError(f"评分时不能导入 {name} (not importable while grading)")
        return None


def _used() -> list[str]:
    """The library implementations the answer tried to call (recorded by the stand-ins of ``grading.jail.withhold``)."""
    import builtins

    return sorted(str(x) for x in builtins.__dict__.get("_grading_used", ()))


def _preimport() -> None:
    """Import the package's modules now: after the guard locks, no source file can be read."""
    import importlib
    import pkgutil

    import helpers

    for info in pkgutil.walk_packages(helpers.__path__, "helpers."):
        if info.name.startswith(("helpers.tools", "helpers.widgets", "helpers.viz", *NOT_IN_CHILD)) or info.name.endswith("__main__"):
            continue
        try:
            importlib.import_module(info.name)
        except BaseException:  # noqa: BLE001 - a module that cannot load here is not needed here
            pass


def _child_main() -> None:
    """The child: define the recorded function, then answer calls until the parent hangs up."""
    import inspect

    sys.meta_path.insert(0, _BlockExercises())
    proto_in, proto_out = os.fdopen(os.dup(0), "rb"), os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    import numpy  # noqa: F401 - imported before the guard locks (encode needs it)
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
    _preimport()
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
    import numpy as np

    loads(dumps({"warm": [encode(torch.zeros(2)), encode(np.zeros(2))]}))  # lazy imports happen now, not after the lock
    guard = getattr(sys.modules.get("sitecustomize"), "_guard", None)
    if guard is not None:  # from now on no source file is read and no code is compiled
        guard.locked = True
    _send(proto_out, dumps(reply))
    if "error" in reply:
        return
    while True:
        args, kwargs = read()
        try:
            reply = {"value": encode(fn(*args, **kwargs))}
        except BaseException as exc:
            reply = error(exc)
        reply["reference"] = _used()
        _send(proto_out, dumps(reply))


if __name__ == "__main__" and sys.argv[1:] == ["--sandbox"]:
    _child_main()
