"""Running a student's code under a time limit, so that no answer can hang ``check()``.

``run_limited(fn, *args)`` calls ``fn(*args)`` and raises ``TimeLimit`` (a ``BaseException``, so
that an ``except Exception`` in a checker or in the student's code does not swallow it) when the
call runs longer than ``TIME_LIMIT`` seconds. ``check()`` turns ``TimeLimit`` into the verdict
超时 (time limit) with a hint.

How the call is stopped:

* **Linux and macOS, main thread** (a Jupyter kernel runs cells there): ``signal.setitimer`` arms
  ``SIGALRM``, whose handler raises ``TimeLimit`` inside the student's code.
* **Windows, or any other thread:** the call runs in a helper thread; when the time is up, the
  caller gets ``TimeLimit`` at once and ``TimeLimit`` is injected into the helper thread
  (``PyThreadState_SetAsyncExc``), which stops a Python loop at its next bytecode.

A ``SIGALRM`` timer that the caller armed itself is left alone: the call then runs under that
timer only (this also covers a student's answer that calls ``check()`` again).

On every platform a single long call into C (one huge ``torch`` matrix product, ``time.sleep``)
is only interrupted when it returns to Python; on Windows such a call finishes in the background
after the verdict. An answer that catches ``BaseException`` itself (a bare ``except:`` inside a
``while True``) can swallow the stop; restart the kernel then (重启内核).
"""

from __future__ import annotations

import ctypes
import signal
import threading

TIME_LIMIT = 5.0  # seconds per call of the student's code


class TimeLimit(BaseException):
    """The student's code ran longer than the time limit."""


def _alarm_usable() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def _raise_time_limit(signum, frame):
    raise TimeLimit()


def _with_alarm(fn, args, seconds: float):
    if signal.getitimer(signal.ITIMER_REAL)[0] > 0:  # a timer is armed already (nested check): keep it
        return fn(*args)
    previous = signal.signal(signal.SIGALRM, _raise_time_limit)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        return fn(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _with_thread(fn, args, seconds: float):
    import torch  # here, not at the top: this module stays importable without torch

    box: dict = {}
    grad = torch.is_grad_enabled()  # grad mode is per thread: carry the caller's over

    def work():
        try:
            with torch.set_grad_enabled(grad):
                box["out"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller below
            box["exc"] = exc

    worker = threading.Thread(target=work, name="exercise-answer", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(worker.ident), ctypes.py_object(TimeLimit))
        worker.join(0.2)
        raise TimeLimit()
    if "exc" in box:
        raise box["exc"]
    return box.get("out")


def run_limited(fn, *args, seconds: float | None = None):
    """``fn(*args)``, stopped with ``TimeLimit`` after ``seconds`` (default ``TIME_LIMIT``)."""
    seconds = TIME_LIMIT if seconds is None else seconds
    if _alarm_usable():
        return _with_alarm(fn, args, seconds)
    return _with_thread(fn, args, seconds)


def time_limit_message() -> str:
    return (
        f"超时 (time limit)：你的代码运行超过了 {TIME_LIMIT:g} 秒，已被停止。"
        "检查有没有死循环 (an endless loop)，例如 while 的条件永远为真，或循环变量没有更新；"
        "这些练习的正确答案都在一眨眼之间算完。"
    )
