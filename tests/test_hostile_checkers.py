"""Hostile answers to the checkers: endless loops are stopped (超时), nothing escapes check(), and
wrong dtypes, complex outputs and huge numbers get their own diagnoses. Each test takes well under
a second: the time limit is lowered to a fraction of a second here."""

from __future__ import annotations

import signal
import threading
import time

import numpy as np
import pytest
import torch
from exercise_support import fresh_hints  # noqa: F401 - autouse fixture

from helpers.exercises import EXERCISES, LazyExercise, check, limits

# A lazily solved exercise is a reading: its solution is a value, and computing it here would be slow.
CODE_IDS = sorted(i for i, e in EXERCISES.items() if not isinstance(e, LazyExercise) and callable(e.solution))
NB05_CODE = ["masked_softmax", "context_vector"]
NUMBER_IDS = ["nb01_read_bleu", "nb02_egret_share", "nb04_tie_alpha", "nb06_crossing_share",
              "nb07_aer_reading"]


@pytest.fixture
def short_limit(monkeypatch):
    monkeypatch.setattr(limits, "TIME_LIMIT", 0.2)


def _forever(*_):
    while True:
        pass


class _EndlessFloat:
    def __float__(self):
        while True:
            pass


@pytest.mark.parametrize("exercise_id", CODE_IDS)
def test_endless_loop_is_stopped_with_time_limit_verdict(short_limit, exercise_id):
    start = time.monotonic()
    result = check(exercise_id, _forever)
    assert not result.passed
    assert "超时 (time limit)" in result.message and "提示 1" in result.message
    assert time.monotonic() - start < 3


def test_time_limit_leaves_no_alarm_and_restores_the_handler(short_limit):
    def mine(signum, frame):
        pass

    previous = signal.signal(signal.SIGALRM, mine)
    try:
        check("context_vector", _forever)
        assert signal.getitimer(signal.ITIMER_REAL)[0] == 0
        assert signal.getsignal(signal.SIGALRM) is mine
    finally:
        signal.signal(signal.SIGALRM, previous)


def test_endless_float_in_a_reading_answer_is_stopped(short_limit):
    result = check("nb04_tie_alpha", _EndlessFloat())
    assert not result.passed and "超时" in result.message


def test_endless_loop_outside_the_main_thread_is_stopped(short_limit):
    """The path taken on Windows (no SIGALRM) and in any helper thread: a watched thread."""
    ticks, stop, results = [0], [False], []

    def spin(*_):
        while not stop[0]:
            ticks[0] += 1

    worker = threading.Thread(target=lambda: results.append(check("context_vector", spin)))
    worker.start()
    worker.join(5)
    try:
        assert results and "超时" in results[0].message
        before = ticks[0]
        time.sleep(0.1)
        assert ticks[0] == before  # the runaway loop itself was stopped, not only abandoned
    finally:
        stop[0] = True


def test_without_sigalrm_the_watched_thread_stops_the_loop(short_limit, monkeypatch):
    """Windows has no signal.setitimer: the same check on the main thread takes the thread path."""
    monkeypatch.setattr(limits, "_alarm_usable", lambda: False)
    ticks = [0]

    def spin(w, v):
        deadline = time.monotonic() + 5  # ends by itself should the stop ever fail
        while time.monotonic() < deadline:
            ticks[0] += 1

    result = check("context_vector", spin)
    assert "超时" in result.message
    before = ticks[0]
    time.sleep(0.1)
    assert ticks[0] == before


def test_a_quick_answer_is_not_cut_short_by_the_limit():
    assert check("context_vector", EXERCISES["context_vector"].solution).passed


def test_a_thread_run_answer_keeps_no_grad():
    seen = []

    def record(w, v):
        seen.append(torch.is_grad_enabled())
        return w @ v

    worker = threading.Thread(target=lambda: check("context_vector", record))
    worker.start()
    worker.join(5)
    assert seen and not any(seen)


# --------------------------------------------------------------------------- nothing escapes
def _exit(*_):
    raise SystemExit(3)


def _interrupt(*_):
    raise KeyboardInterrupt


@pytest.mark.parametrize("exercise_id", ["nb03_peak_source", "nb06_has_crossing",
                                         "nb07a_aer_floor", *NB05_CODE])
@pytest.mark.parametrize("raising", [_exit, _interrupt])
def test_system_exit_and_interrupt_from_an_answer_become_a_verdict(exercise_id, raising):
    result = check(exercise_id, raising)
    assert not result.passed
    assert "SystemExit" in result.message or "KeyboardInterrupt" in result.message


def test_system_exit_while_iterating_the_answers_output_is_caught():
    class Exits:
        def __float__(self):
            raise SystemExit(1)

    result = check("nb07a_aer_floor", lambda n_tgt, sure, possible: Exits())
    assert not result.passed and result.message


def test_system_exit_from_float_of_a_reading_answer_is_caught():
    class Exits:
        def __float__(self):
            raise SystemExit(1)

    assert not check("nb02_egret_share", Exits()).passed


# --------------------------------------------------------------------------- dtypes, complex, huge
def test_int64_answer_to_masked_softmax_is_a_dtype_mistake_not_an_inverted_mask():
    result = check("masked_softmax", lambda s, m: torch.zeros(s.shape, dtype=torch.long))
    assert not result.passed
    assert "torch.int64" in result.message and "float" in result.message
    assert "inverted mask" not in result.message


def test_rounded_context_vectors_are_a_dtype_mistake():
    result = check("context_vector", lambda w, v: (w @ v).round().long())
    assert not result.passed and result.details["kind"] == "dtype"


@pytest.mark.parametrize("exercise_id", NB05_CODE)
def test_complex64_version_of_the_solution_does_not_pass(exercise_id):
    solution = EXERCISES[exercise_id].solution
    result = check(exercise_id, lambda *a: solution(*a).to(torch.complex64))
    assert not result.passed
    assert "complex" in result.message


@pytest.mark.parametrize("exercise_id", NUMBER_IDS)
def test_a_huge_integer_is_a_number_that_is_too_large(exercise_id):
    result = check(exercise_id, 10**400)
    assert not result.passed
    assert "too large" in result.message and "a number" not in result.message


@pytest.mark.parametrize("answer", [0.5 + 0j, np.complex128(0.5), torch.tensor(0.5 + 0j)])
def test_a_complex_reading_is_named_and_never_passes(answer):
    result = check("nb04_tie_alpha", answer)
    assert not result.passed and "complex" in result.message


def test_tie_alpha_on_a_torch_vector_names_the_vector():
    result = check("nb04_tie_alpha", torch.tensor([0.5, 0.5]))
    assert not result.passed
    assert "α 向量" in result.message and "internal" not in result.message


@pytest.mark.notebook  # starts a kernel (a few seconds)
def test_endless_loop_is_stopped_inside_a_jupyter_kernel():
    """The classroom case: the answer runs in an IPython kernel (its main thread: SIGALRM on Linux/macOS).
    The kernel loads limits.py on its own, without torch, so that the test stays quick."""
    import nbformat
    from nbclient import NotebookClient

    source = ("import importlib.util\n"
              f"spec = importlib.util.spec_from_file_location('limits', {limits.__file__!r})\n"
              "limits = importlib.util.module_from_spec(spec)\n"
              "spec.loader.exec_module(limits)\n"
              "def forever():\n"
              "    while True:\n"
              "        pass\n"
              "try:\n"
              "    limits.run_limited(forever, seconds=0.3)\n"
              "except limits.TimeLimit:\n"
              "    print('stopped by', 'SIGALRM' if limits._alarm_usable() else 'thread')")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    NotebookClient(nb, timeout=30, kernel_name="python3").execute()
    printed = "".join(o.get("text", "") for o in nb.cells[0].outputs)
    assert "stopped by SIGALRM" in printed
