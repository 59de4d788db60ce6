"""Exercises of notebook 02_origins: solutions pass, typical mistakes get a specific diagnosis,
hostile answers never raise, hints are revealed progressively."""

from __future__ import annotations

import pytest
from exercise_support import fresh_hints  # noqa: F401 - autouse fixture

from helpers.exercises import EXERCISES, check

IDS = ["nb02_narrow_soft", "nb02_egret_share", "nb02_hard_gradient", "nb02_hard_gradient_why"]


def test_the_notebook_exercises_are_registered():
    assert all(exercise_id in EXERCISES for exercise_id in IDS)


def test_solution_notebook_answers_pass():
    assert check("nb02_narrow_soft", "软").passed
    assert check("nb02_egret_share", 0.385).passed
    assert check("nb02_hard_gradient", 0).passed and check("nb02_hard_gradient_why", "a").passed


@pytest.mark.parametrize("spelling", ["软", " 软注意力 ", "soft", "Soft attention", "软。"])
def test_narrow_soft_accepts_spellings_of_soft(spelling):
    assert check("nb02_narrow_soft", spelling).passed


@pytest.mark.parametrize("spelling", ["硬", "hard", "硬注意力"])
def test_narrow_soft_hard_is_wrong_and_says_why(spelling):
    result = check("nb02_narrow_soft", spelling)
    assert not result.passed and "只选" in result.message and "第 04 本" in result.message


def test_narrow_soft_odd_answer_and_unfinished():
    assert "只填" in check("nb02_narrow_soft", "maybe").message
    assert not check("nb02_narrow_soft", None).passed


def test_hard_gradient_reason_is_fixed_by_reasoning_not_by_the_outcome():
    assert EXERCISES["nb02_hard_gradient_why"].solution == "A"
    for letter in ("B", "C"):
        result = check("nb02_hard_gradient_why", letter)
        assert not result.passed and "没有像素跨过边界" in result.message


def test_hard_spotlight_slope_is_zero_and_the_soft_one_is_not_by_hand():
    from helpers.exercises.nb02 import HARD, SOFT, egret_share_slope
    from helpers.viz.teaching import EGRET_XY, lake_scene, spotlight_weights

    scene = lake_scene()
    egret = scene.min(axis=2) > 0.85
    x, y = EGRET_XY
    share = [float(spotlight_weights(scene.shape, cx, y, 0.14, softness=SOFT)[egret].sum()) for cx in (x - 1e-5, x + 1e-5)]
    assert egret_share_slope(HARD) == 0.0
    assert egret_share_slope(SOFT) == pytest.approx((share[1] - share[0]) / 2e-5) and egret_share_slope(SOFT) != 0


def test_narrow_soft_spotlight_still_has_a_gradient_and_the_narrow_hard_one_has_none():
    from helpers.exercises.reveals import HARD, SOFT, egret_share_slope
    from helpers.viz.teaching import EGRET_XY, lake_scene, spotlight_weights

    scene = lake_scene()
    egret = scene.min(axis=2) > 0.85
    x, y = EGRET_XY
    share = [float(spotlight_weights(scene.shape, cx, y, 0.03, softness=SOFT)[egret].sum()) for cx in (x - 1e-5, x + 1e-5)]
    assert egret_share_slope(SOFT, radius=0.03) == pytest.approx((share[1] - share[0]) / 2e-5)
    assert abs(egret_share_slope(SOFT, radius=0.03)) > 0.1
    assert egret_share_slope(HARD, radius=0.03) == 0.0


def test_egret_share_reference_matches_the_scene():
    from helpers.viz.teaching import EGRET_XY, lake_scene, spotlight_weights

    scene = lake_scene()
    weights = spotlight_weights(scene.shape, EGRET_XY[0], EGRET_XY[1], 0.05)
    share = float(weights[scene.min(axis=2) > 0.85].sum())
    assert abs(share - EXERCISES["nb02_egret_share"].solution) < 5e-4
