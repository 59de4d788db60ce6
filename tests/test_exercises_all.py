"""What every registered exercise promises, one table for all notebooks: its reference solution
passes, hostile answers never raise and never pass, None says 尚未完成, hints come one by one."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from exercise_support import WRONG, fresh_hints  # noqa: F401 - fresh_hints: autouse fixture

from helpers.exercises import EXERCISES, CheckResult, check


def _raise(*_):
    raise RuntimeError("boom")


def _exit(*_):
    raise SystemExit(1)


def _interrupt(*_):
    raise KeyboardInterrupt


# Known wrong readings and choices, each with the phrase its diagnosis must contain.
READING_MISTAKES = [
    ("nb02_egret_share", 38.51, "percentage"),
    ("nb02_egret_share", 0.111, "0.14"),
    ("nb02_egret_share", 0.0105, "area share"),
    ("nb02_egret_share", 1 - 0.3851, "不要取反"),
    ("nb02_egret_share", 0.2, "too small"),
    ("nb02_hard_gradient", 0.5, "边界"),
    ("nb02_hard_gradient_why", "C", "不是负数"),
    ("nb03_uniform_student", "maybe", "只填"),
    ("nb04_predict_video", "湖边白鹭捕鱼", "s = 1"),
    ("nb04_predict_video", "《可爱猫咪学钢琴》", "s = 0"),
    ("nb04_predict_video", 1, "编号"),
    ("nb04_predict_video", "加权混合", "one-hot"),
    ("nb04_predict_video", "猫", "不是网站上的视频标题"),
    ("nb04_tie_alpha", 1.0, "并列"),
    ("nb04_tie_alpha", 0, "硬注意力"),
    ("nb04_tie_alpha", 50, "percentage"),
    ("nb04_tie_alpha", 1 / 6, "uniform"),
    ("nb04_tie_alpha", [0.5, 0.5], "α 向量"),
    ("nb04_tie_alpha", 0.3, "too small"),
]

HOSTILE = [None, "abc", float("nan"), float("inf"), 3, [1, 2], {"a": 1}, True, b"\x00", object(),
           np.zeros((2, 2)), lambda: 0, lambda *a: None, lambda *a: "abc", lambda *a: object(),
           lambda *a: (1, 2), lambda *a: [[1, "x"]], lambda *a: np.array([np.nan]), _raise, _exit, _interrupt,
           print, lambda *a: 1 / 0, lambda *a: {"1-10": 1.0}, lambda: True, ["student"], b"student", ["bahdanau"],
           [0.5], [1, "a"], torch.ones(3), lambda *a: np.full((2, 2), np.nan), lambda *a: torch.tensor(float("nan")),
           lambda *a: np.array([], dtype=float), lambda *a: 7, lambda h, w, cx, cy, r: np.full((h, w), np.nan)]
IDS = sorted(EXERCISES)


def test_every_exercise_has_a_typical_wrong_answer_here():
    assert set(WRONG) == set(EXERCISES)


@pytest.mark.parametrize("exercise_id", IDS)
def test_solution_passes_its_checker(exercise_id):
    result = check(exercise_id, EXERCISES[exercise_id].solution)
    assert result.passed, result.message


@pytest.mark.parametrize("exercise_id", IDS)
def test_exercise_entry_is_complete(exercise_id):
    exercise = EXERCISES[exercise_id]
    assert exercise.id == exercise_id and exercise.notebook[:2].isdigit()
    assert exercise.title and exercise.prompt and len(exercise.hints) == 3


@pytest.mark.parametrize("exercise_id", IDS)
@pytest.mark.parametrize("answer", HOSTILE, ids=[f"hostile{i}" for i in range(len(HOSTILE))])
def test_hostile_answers_never_raise_and_never_pass(exercise_id, answer):
    result = check(exercise_id, answer)
    assert isinstance(result, CheckResult)
    assert not result.passed and result.message.strip()


@pytest.mark.parametrize("exercise_id", IDS)
def test_none_reports_not_finished(exercise_id):
    assert check(exercise_id, None).message.startswith("尚未完成 (not finished yet)")


@pytest.mark.parametrize("exercise_id", IDS)
def test_wrong_answer_fails_and_shows_the_first_hint(exercise_id):
    result = check(exercise_id, WRONG[exercise_id])
    assert not result.passed
    assert "提示 1" in result.message and "提示 2" not in result.message


@pytest.mark.parametrize("exercise_id", IDS)
def test_second_failure_shows_more_hints_than_first(exercise_id):
    first = check(exercise_id, WRONG[exercise_id]).message
    second = check(exercise_id, WRONG[exercise_id]).message
    assert "提示 2" in second and len(second) > len(first)


@pytest.mark.parametrize("exercise_id, answer, phrase", READING_MISTAKES)
def test_wrong_reading_is_rejected_with_specific_message(exercise_id, answer, phrase):
    result = check(exercise_id, answer)
    assert not result.passed
    assert phrase in result.message
