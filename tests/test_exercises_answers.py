"""How the checkers read what a student types: the book's transliteration 巴赫达瑙, numbers in quotes,
near-miss names with a suggestion, worked hints instead of the answer, time steps counted from 1."""

from __future__ import annotations

import pytest
from exercise_support import WRONG, fresh_hints  # noqa: F401 - fresh_hints: autouse fixture

from helpers.exercises import EXERCISES, check
from helpers.exercises.kinds import suggest

NUMBER_IDS = ["nb01_read_bleu", "nb02_egret_share", "nb04_tie_alpha", "nb06_crossing_share",
              "nb07_aer_reading"]
STRING_IDS = ["nb04_predict_video", "nb06_best_aer"]


# --------------------------------------------------------------------------- 巴赫达瑙
def test_best_aer_reads_the_transliteration_as_the_model_name():
    result = check("nb06_best_aer", "巴赫达瑙")
    expected = EXERCISES["nb06_best_aer"].solution
    assert result.passed == (expected == "bahdanau")
    assert "没有这个模型" not in result.message  # a known model, right or wrong


# --------------------------------------------------------------------------- quoted numbers
@pytest.mark.parametrize("exercise_id", NUMBER_IDS)
@pytest.mark.parametrize("spelling", ["'{}'", '"{}"', " {} ", "“{}”"])
def test_a_quoted_number_reads_as_the_number(exercise_id, spelling):
    value = round(float(EXERCISES[exercise_id].solution), 4)
    result = check(exercise_id, spelling.format(value))
    assert result.passed, result.message


@pytest.mark.parametrize("exercise_id", NUMBER_IDS)
def test_a_quoted_wrong_number_gets_the_same_diagnosis_as_the_number(exercise_id):
    assert check(exercise_id, "'-0.5'").message.split("\n")[0] == check(exercise_id, -0.5).message.split("\n")[0]


# --------------------------------------------------------------------------- near misses
@pytest.mark.parametrize("exercise_id, typed, meant", [
    ("nb06_best_aer", "luong dot", "luong-dot"),
    ("nb06_best_aer", "Luong_General", "luong-general"),
    ("nb06_best_aer", "bahdanu", "bahdanau"),
])
def test_a_near_miss_gets_a_suggestion(exercise_id, typed, meant):
    result = check(exercise_id, typed)
    assert not result.passed
    assert f"did you mean) '{meant}'" in result.message


def test_a_near_miss_uses_up_no_hint():
    result = check("nb06_best_aer", "luong dot")
    assert "提示" not in result.message and "hints_shown" not in result.details


def test_suggest_prefers_the_same_name_with_other_separators():
    assert suggest("luongdot", ["luong-general", "luong-dot", "bahdanau"]) == "luong-dot"
    assert suggest("transformer", ["luong-dot", "bahdanau"]) is None


# --------------------------------------------------------------------------- hints, not answers
@pytest.mark.parametrize("exercise_id", STRING_IDS)
def test_third_failure_shows_a_worked_hint_not_the_answer(exercise_id):
    solution = EXERCISES[exercise_id].solution
    assert isinstance(solution, str)
    for _ in range(3):
        result = check(exercise_id, WRONG[exercise_id])
    assert "提示 3" in result.message
    assert solution.lower() not in result.message.lower()


def test_tie_alpha_hints_do_not_state_the_value():
    for _ in range(3):
        result = check("nb04_tie_alpha", WRONG["nb04_tie_alpha"])
    assert "0.5" not in result.message


@pytest.mark.parametrize("exercise_id", sorted(EXERCISES))
def test_all_hints_shown_points_to_the_solution_notebooks(exercise_id):
    for _ in range(3):
        result = check(exercise_id, WRONG[exercise_id])
    assert "notebooks/solutions/" in result.message
    assert ".solution" not in result.message
