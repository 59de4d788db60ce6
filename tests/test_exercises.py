"""Tests for helpers.exercises / helpers.exercises.nb05_code: solutions pass, typical mistakes get a specific
diagnosis, hostile answers never raise, hints are revealed progressively."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from exercise_support import fresh_hints  # noqa: F401 - autouse fixture

from helpers.exercises import (
    EXERCISES,
    CheckResult,
    Exercise,
    check,
    choice_checker,
    number_checker,
    register,
    reset_hints,
)

INF = float("-inf")
CODE_IDS = ["masked_softmax", "context_vector"]


# --- wrong answers written independently of the checkers ---------------------------------------


def _msm(s, m):  # a correct masked softmax, used inside wrong answers of other kinds
    return torch.softmax(s.masked_fill(~m, INF), -1).masked_fill(~m, 0.0)


def _raise(*_):
    raise ValueError("boom")


def _exit(*_):
    raise SystemExit(1)


def _gen(*args):
    yield from args


WRONG_ANSWERS = [
    # masked_softmax
    ("masked_softmax", lambda s, m: _msm(s.transpose(-1, -2), m.transpose(-1, -2)).transpose(-1, -2), "wrong axis"),
    ("masked_softmax", lambda s, m: torch.softmax(s.masked_fill(~m, -1e9), dim=0), "wrong axis"),
    ("masked_softmax", lambda s, m: torch.softmax(s, -1), "mask ignored"),
    ("masked_softmax", lambda s, m: _msm(s, ~m), "inverted mask"),
    ("masked_softmax", lambda s, m: torch.softmax(s.masked_fill(m, -1e9), -1), "inverted mask"),
    ("masked_softmax", lambda s, m: torch.softmax(s.masked_fill(~m, INF), -1), "fully masked row"),
    ("masked_softmax", lambda s, m: torch.softmax(s.masked_fill(~m, -1e9), -1), "fully masked row should give zeros"),
    ("masked_softmax", lambda s, m: _msm(s / s.shape[-1] ** 0.5, m), "scaling where none belongs"),
    ("masked_softmax", lambda s, m: torch.softmax(s, -1) * m, "weights do not sum to 1"),
    ("masked_softmax", lambda s, m: torch.exp(s) * m, "weights do not sum to 1"),
    ("masked_softmax", lambda s, m: _msm(s, m).sum(-1), "输出形状应为"),
    ("masked_softmax", lambda s, m: _msm(s, m).numpy(), "numpy"),
    ("masked_softmax", lambda s, m: _msm(s, m).tolist(), "torch.stack"),
    ("masked_softmax", lambda s, m: None, "尚未完成"),
    ("masked_softmax", _raise, "raised an exception"),
    # context_vector
    ("context_vector", lambda w, v: torch.softmax(w, -1) @ v, "already normalised"),
    ("context_vector", lambda w, v: v.mean(1, keepdim=True).expand(-1, w.shape[1], -1), "weights unused"),
    ("context_vector", lambda w, v: (w @ v) / w.shape[-1], "scaling where none belongs"),
    ("context_vector", lambda w, v: (w.unsqueeze(-1) * v.unsqueeze(1)).sum(1), "sum over S"),
    ("context_vector", lambda w, v: w.transpose(1, 2) @ v, "raised an exception"),
    ("context_vector", lambda w, v: _gen(w, v), "generator"),
]  # fmt: skip

WRONG_ANSWER_CATALOGUE_SIZE = len(WRONG_ANSWERS)


@pytest.mark.parametrize(
    "exercise_id,wrong,phrase", WRONG_ANSWERS, ids=[f"{i}-{n}" for n, (i, _, _) in enumerate(WRONG_ANSWERS)]
)
def test_wrong_answer_is_rejected_with_specific_message(exercise_id, wrong, phrase):
    result = check(exercise_id, wrong)
    assert not result.passed
    assert phrase in result.message, result.message


def test_catalogue_covers_every_code_exercise():
    assert {i for i, _, _ in WRONG_ANSWERS} == set(CODE_IDS)


def _hostile_answers():
    return [
        None,
        42,
        "abc",
        [1, 2],
        lambda: None,
        lambda *a: float("nan"),
        lambda *a: torch.full((2, 3, 5), float("nan")),
        lambda *a: torch.zeros(2, 3, 5, dtype=torch.long),
        lambda *a: "not a tensor",
        lambda *a: (a[0], a[0]),
        lambda *a: np.zeros((2, 3, 5)),
        lambda *a: _gen(*a),
        _raise,
        _exit,
        lambda *a: 1 / 0,
        torch.softmax,
        type("Weird", (), {"__call__": lambda self, *a: a[-1]})(),
    ]


@pytest.mark.parametrize("exercise_id", CODE_IDS)
def test_hostile_answers_never_raise_and_never_pass(exercise_id):
    for answer in _hostile_answers():
        result = check(exercise_id, answer)
        assert isinstance(result, CheckResult)
        assert not result.passed and result.message


def test_none_answer_reports_not_finished():
    assert check("context_vector", None).message.startswith("尚未完成 (not finished yet)")


def test_stub_returning_none_reports_not_finished():
    def stub(scores, mask):
        # 在这里写你的代码
        return None

    assert check("masked_softmax", stub).message.startswith("尚未完成 (not finished yet)")


def test_wrong_arity_is_explained():
    assert "wrong number of arguments" in check("context_vector", lambda w: w).message


def test_non_callable_answer_asks_for_a_function():
    assert "a function" in check("context_vector", 42).message


def test_exception_message_names_type_without_traceback():
    message = check("masked_softmax", _raise).message
    assert "ValueError: boom" in message and "Traceback" not in message


def test_nan_output_is_reported():
    result = check("context_vector", lambda w, v: (w @ v) * float("nan"))
    assert "NaN" in result.message


def test_unknown_id_lists_valid_ids():
    result = check("masked_sofmax", lambda s, m: s)
    assert not result.passed
    assert "unknown exercise id" in result.message and "masked_softmax" in result.message


def test_unhashable_id_does_not_raise():
    assert not check(["masked_softmax"], None).passed


def test_second_failure_shows_more_hints_than_first():
    wrong = lambda s, m: torch.softmax(s, -1)  # noqa: E731
    first, second = check("masked_softmax", wrong), check("masked_softmax", wrong)
    assert "提示 1" in first.message and "提示 2" not in first.message
    assert "提示 2" in second.message and len(second.message) > len(first.message)


def test_reset_hints_starts_again_from_hint_one():
    wrong = lambda s, m: torch.softmax(s, -1)  # noqa: E731
    check("masked_softmax", wrong)
    reset_hints()
    assert "提示 2" not in check("masked_softmax", wrong).message


def test_unfinished_answer_does_not_use_up_hints():
    check("context_vector", None)
    assert check("context_vector", lambda w, v: torch.softmax(w, -1) @ v).details["hints_shown"] == 1


def test_in_place_edits_by_the_student_do_not_break_the_check():
    def in_place(scores, mask):
        scores.masked_fill_(~mask, INF)
        return torch.softmax(scores, -1).masked_fill_(~mask, 0.0)

    assert check("masked_softmax", in_place).passed


def test_checking_leaves_global_random_state_alone():
    torch.manual_seed(0)
    expected = torch.rand(3)
    torch.manual_seed(0)
    check("masked_softmax", EXERCISES["masked_softmax"].solution)
    assert torch.equal(torch.rand(3), expected)


def test_failing_case_is_shown_small():
    message = check("context_vector", lambda w, v: torch.softmax(w, -1) @ v).message
    assert "测试用例 (test case)" in message and "expected" in message


def test_check_result_renders_verdict_in_chinese():
    ok, bad = CheckResult(True, "好"), CheckResult(False, "<坏>")
    assert str(ok).startswith("√ 通过") and repr(bad).startswith("× 未通过")
    assert "&lt;坏&gt;" in bad._repr_html_()


def test_registered_reading_exercise_is_checked():
    register(
        Exercise("tmp_number", "07a_heatmaps", "读数", "读出权重", 0.42, number_checker(0.42), ["看热力图"])
    )
    try:
        assert check("tmp_number", 0.425).passed
        assert "too small" in check("tmp_number", 0.3).message
        assert check("tmp_number", None).message.startswith("尚未完成")
    finally:
        EXERCISES.pop("tmp_number")


def test_choice_checker_ignores_spaces_and_case():
    checker = choice_checker("am", accept=("'am'",))
    assert checker(" AM ").passed and not checker("is").passed and not checker(3).passed


def test_the_english_term_comes_once_on_the_first_line():
    unfinished = str(check("masked_softmax", None))
    assert unfinished.startswith("× 尚未完成 (not finished yet)：") and "not passed" not in unfinished
    wrong = lambda s, m: torch.softmax(s, -1)  # noqa: E731
    for _ in range(5):
        text = str(check("masked_softmax", wrong))
    first, *rest = text.splitlines()
    assert first.startswith("× 未通过 (not passed)：")
    hint_lines = [line for line in rest if line.startswith("提示 ") or line.startswith("（已显示全部提示")]
    assert len(hint_lines) >= 2 and not any("(hint" in line or "(all hints" in line for line in hint_lines)
