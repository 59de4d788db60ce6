"""Exercises of notebook 04 (retrieval framework): answers right by reasoning pass, the others are explained."""

from __future__ import annotations

import numpy as np
import pytest
from exercise_support import fresh_hints  # noqa: F401 - autouse fixture

from helpers.exercises import EXERCISES, check


@pytest.mark.parametrize("exercise_id, answer", [
    ("nb04_blend_range", "B"),
    ("nb04_nudge", "b"),
    ("nb04_predict_video", "《小狗学游泳》"),
    ("nb04_tie_alpha", 0.5),
])
def test_solution_notebook_answers_pass(exercise_id, answer):
    result = check(exercise_id, answer)
    assert result.passed, result.message


@pytest.mark.parametrize("exercise_id, wrong, phrase", [
    ("nb04_blend_range", "A", "one-hot"),
    ("nb04_blend_range", "C", "和是 1"),
    ("nb04_nudge", "A", "最高分"),
    ("nb04_nudge", "C", "光滑"),
])
def test_wrong_reasons_are_explained(exercise_id, wrong, phrase):
    result = check(exercise_id, wrong)
    assert not result.passed and phrase in result.message


@pytest.mark.parametrize("exercise_id", ["nb04_blend_range", "nb04_nudge"])
def test_no_answer_reports_not_finished_and_a_bad_letter_is_refused(exercise_id):
    assert "尚未完成" in check(exercise_id, None).message
    assert not check(exercise_id, "E").passed


def test_the_reasoned_answers_hold_on_the_video_site():
    from helpers.widgets.toys import VIDEOS, retrieve, value_matrix

    V = value_matrix()
    soft = retrieve("湖边 教程", temperature=1.0).result
    # B: every feature of the blend lies between the videos' minimum and maximum, and the blend is no video
    assert np.all(soft >= V.min(axis=0) - 1e-12) and np.all(soft <= V.max(axis=0) + 1e-12)
    assert not any(np.allclose(soft, v) for v in V)
    assert len(VIDEOS) == 6


def test_reading_answers_match_the_video_site():
    from helpers.widgets.toys import VIDEOS, retrieve

    assert VIDEOS[retrieve("湖边 小狗 游泳", temperature=0.01).best].title == EXERCISES["nb04_predict_video"].solution
    alpha = retrieve("入门", temperature=0.01).alpha
    assert VIDEOS[5].title == "钢琴入门教程"
    assert abs(alpha[5] - EXERCISES["nb04_tie_alpha"].solution) < 1e-9
