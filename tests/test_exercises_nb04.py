"""Exercises of notebook 04_framework: solutions pass, typical mistakes get a specific diagnosis,
hostile answers never raise, hints are revealed progressively."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from exercise_support import fresh_hints  # noqa: F401 - autouse fixture

from helpers.exercises import EXERCISES, check

IDS = ["nb04_soft_retrieve", "nb04_hard_retrieve", "nb04_predict_video", "nb04_tie_alpha"]


# --- answers written independently of the checkers ---------------------------------------------


def _naive_softmax(z):
    with np.errstate(all="ignore"):
        e = np.exp(z)
        return e / e.sum()


def _stable_softmax(z):
    e = np.exp(z - z.max())
    return e / e.sum()


def _softmax_rows(z):  # softmax along axis 1 of an [N, 1] column: every weight becomes 1
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _soft_solution(query_vec, keys, values, temperature):  # as written in the solution notebook
    scores = keys @ query_vec
    alpha = _stable_softmax(scores / temperature)
    return alpha @ values


def _hard_solution(query_vec, keys, values):  # a plain loop, first maximum wins
    scores = [float(sum(k[d] * query_vec[d] for d in range(len(query_vec)))) for k in keys]
    best = 0
    for i, s in enumerate(scores):
        if s > scores[best]:
            best = i
    return values[best]


def _hard_loop_from_zero(q, K, V):
    best, best_score = 0, 0.0
    for i, k in enumerate(K):
        if k @ q > best_score:
            best, best_score = i, k @ q
    return V[best]


def _raise(*_):
    raise RuntimeError("boom")


WRONG_SOFT = [
    (lambda q, K, V, t: (K @ q) @ V, "softmax missing"),
    (lambda q, K, V, t: _stable_softmax((K @ q) / t), "returned α instead of the weighted Values"),
    (lambda q, K, V, t: _stable_softmax((K @ q) * t) @ V, "temperature multiplied instead of divided"),
    (lambda q, K, V, t: _stable_softmax(K @ q) @ V, "temperature ignored"),
    (lambda q, K, V, t: _naive_softmax((K @ q) / t) @ V, "overflow"),
    (lambda q, K, V, t: (_stable_softmax((K @ q) / t)[:, None] * V).sum(axis=1), "wrong axis"),
    (lambda q, K, V, t: (_softmax_rows(((K @ q) / t)[:, None]) * V).sum(axis=0), "wrong axis"),
    (lambda q, K, V, t: _stable_softmax((K @ q) / t)[:, None] * V, "sum over N"),
    (lambda q, K, V, t: V.mean(axis=0), "平均"),
    (lambda q, K, V, t: V[int(np.argmax(K @ q))], "hard attention"),
    (lambda q, K, V, t: 2 * _soft_solution(q, K, V, t), "weights do not sum to 1"),
    (lambda q, K, V, t: ((K @ q) / t) / ((K @ q) / t).sum() @ V, "不是 softmax"),
    (lambda q, K, V, t: np.exp((K @ q) / t) @ V, "除以它们的总和"),
]

WRONG_HARD = [
    (lambda q, K, V: V[int(np.argmin(K @ q))], "arg-min"),
    (lambda q, K, V: int(np.argmax(K @ q)), "an index"),
    (lambda q, K, V: K[int(np.argmax(K @ q))], "Key"),
    (lambda q, K, V: V[len(K) - 1 - int(np.argmax((K @ q)[::-1]))], "first index"),
    (lambda q, K, V: np.eye(len(K))[int(np.argmax(K @ q))], "one-hot"),
    (lambda q, K, V: _soft_solution(q, K, V, 1.0), "soft attention"),
    (_hard_loop_from_zero, "-np.inf"),
    (lambda q, K, V: V[int(np.argmax(np.abs(K @ q)))], "absolute value"),
    (lambda q, K, V: V, "[N, Dv]"),
]



@pytest.mark.parametrize("exercise_id, answer", [
    ("nb04_soft_retrieve", _soft_solution),
    ("nb04_hard_retrieve", _hard_solution),
    ("nb04_predict_video", "《小狗学游泳》"),
    ("nb04_tie_alpha", 0.5),
])
def test_solution_notebook_answers_pass(exercise_id, answer):
    result = check(exercise_id, answer)
    assert result.passed, result.message


def test_torch_output_is_accepted():
    answer = lambda q, K, V, t: torch.tensor(_soft_solution(q, K, V, t))  # noqa: E731
    assert check("nb04_soft_retrieve", answer).passed


def test_soft_reference_on_a_hand_computed_case():
    # scores K q = [2, 0]; with τ = 2: α = [e, 1] / (e + 1); values [[1], [0]] -> e / (e + 1)
    out = EXERCISES["nb04_soft_retrieve"].solution(
        np.array([1.0, 1.0]), np.array([[1.0, 1.0], [0.0, 0.0]]), np.array([[1.0], [0.0]]), 2.0)
    assert np.allclose(out, [np.e / (np.e + 1)])


def test_reading_answers_match_the_video_site():
    from helpers.widgets.toys import VIDEOS, retrieve

    assert VIDEOS[retrieve("湖边 小狗 游泳", temperature=0.01).best].title == EXERCISES["nb04_predict_video"].solution
    alpha = retrieve("入门", temperature=0.01).alpha
    assert VIDEOS[5].title == "钢琴入门教程"
    assert abs(alpha[5] - EXERCISES["nb04_tie_alpha"].solution) < 1e-9


CODE_MISTAKES = [("nb04_soft_retrieve", *m) for m in WRONG_SOFT] + [("nb04_hard_retrieve", *m) for m in WRONG_HARD]


@pytest.mark.parametrize("exercise_id, wrong, phrase", CODE_MISTAKES)
def test_wrong_retrieve_is_rejected_with_specific_message(exercise_id, wrong, phrase):
    result = check(exercise_id, wrong)
    assert not result.passed
    assert phrase in result.message
    assert "数值不对 (wrong values)" not in result.message


@pytest.mark.parametrize("exercise_id", ["nb04_soft_retrieve", "nb04_hard_retrieve"])
def test_stub_returning_none_reports_not_finished(exercise_id):
    assert "尚未完成" in check(exercise_id, lambda *args: None).message


def test_crashing_function_is_reported_with_the_case():
    message = check("nb04_hard_retrieve", _raise).message
    assert "RuntimeError: boom" in message and "测试用例" in message


def test_checking_does_not_modify_the_students_view_of_inputs():
    def in_place(q, K, V, t):
        K *= 0  # an in-place edit must not break the next case or the expected values
        return _soft_solution(q, K, V, t)

    assert not check("nb04_soft_retrieve", in_place).passed
    assert check("nb04_soft_retrieve", _soft_solution).passed

