"""Exercises of notebook 02_origins: solutions pass, typical mistakes get a specific diagnosis,
hostile answers never raise, hints are revealed progressively."""

from __future__ import annotations

import numpy as np
import pytest
from exercise_support import fresh_hints  # noqa: F401 - autouse fixture

from helpers.exercises import EXERCISES, check

IDS = ["nb02_spotlight_weights", "nb02_egret_share", "nb02_hard_gradient", "nb02_hard_gradient_why"]


def _disc(h, w, cx, cy, radius, strict=False):
    """An independent hand-written loop version of the spotlight, used inside wrong answers."""
    out = np.zeros((h, w))
    for i in range(h):
        for j in range(w):
            d2 = (j - cx) ** 2 + (i - cy) ** 2
            out[i, j] = d2 < radius**2 if strict else d2 <= radius**2
    return out


def _normalised(m):
    return m / m.sum() if m.sum() > 0 else np.full(m.shape, 1.0 / m.size)


def _student_solution(h, w, cx, cy, radius):  # as written in the solution notebook
    y, x = np.mgrid[0:h, 0:w]
    inside = (x - cx) ** 2 + (y - cy) ** 2 <= radius**2
    if inside.sum() == 0:
        return np.ones((h, w)) / (h * w)
    return inside / inside.sum()


def _raise(*_):
    raise RuntimeError("boom")


WRONG_SPOTLIGHT = [
    (lambda h, w, cx, cy, r: _disc(h, w, cx, cy, r), "weights do not sum to 1"),
    (lambda h, w, cx, cy, r: _normalised(_disc(h, w, cx, cy, r, strict=True)), "<="),
    (lambda h, w, cx, cy, r: _normalised(_disc(h, w, cy, cx, r)), "x and y swapped"),
    (lambda h, w, cx, cy, r: _normalised(_disc(h, w, cx, cy, r)).T, "transposed"),
    (lambda h, w, cx, cy, r: _disc(h, w, cx, cy, r) / _disc(h, w, cx, cy, r).sum(), "NaN"),  # 0/0
    (lambda h, w, cx, cy, r: _disc(h, w, cx, cy, r) / max(_disc(h, w, cx, cy, r).sum(), 1), "uniform"),
    (lambda h, w, cx, cy, r: _normalised(1.0 - _disc(h, w, cx, cy, r)), "inverted"),
    (lambda h, w, cx, cy, r: _normalised(_disc(h, w, cx, cy, r / 2)), "diameter"),
    (lambda h, w, cx, cy, r: _normalised(_disc(h, w, cx - 0.5, cy - 0.5, r)), "0.5"),
    (lambda h, w, cx, cy, r: _normalised(_disc(h, w, cx, cy, r)).tolist(), None),  # a list is accepted
]



def test_solution_notebook_answers_pass():
    assert check("nb02_spotlight_weights", _student_solution).passed
    assert check("nb02_egret_share", 0.385).passed
    assert check("nb02_hard_gradient", 0).passed and check("nb02_hard_gradient_why", "a").passed


def test_hard_spotlight_slope_is_zero_and_the_soft_one_is_not_by_hand():
    from helpers.exercises.nb02 import HARD, SOFT, egret_share_slope
    from helpers.viz.teaching import EGRET_XY, lake_scene, spotlight_weights

    scene = lake_scene()
    egret = scene.min(axis=2) > 0.85
    x, y = EGRET_XY
    share = [float(spotlight_weights(scene.shape, cx, y, 0.14, softness=SOFT)[egret].sum()) for cx in (x - 1e-5, x + 1e-5)]
    assert egret_share_slope(HARD) == 0.0
    assert egret_share_slope(SOFT) == pytest.approx((share[1] - share[0]) / 2e-5) and egret_share_slope(SOFT) != 0


def test_egret_share_reference_matches_the_scene():
    from helpers.viz.teaching import EGRET_XY, lake_scene, spotlight_weights

    scene = lake_scene()
    weights = spotlight_weights(scene.shape, EGRET_XY[0], EGRET_XY[1], 0.05)
    share = float(weights[scene.min(axis=2) > 0.85].sum())
    assert abs(share - EXERCISES["nb02_egret_share"].solution) < 5e-4


def test_spotlight_reference_on_a_hand_computed_case():
    # 3 x 4 image, centre (x=1, y=1), radius 1: the centre and its 4 neighbours, 1/5 each.
    expected = np.array([[0, 0.2, 0, 0], [0.2, 0.2, 0.2, 0], [0, 0.2, 0, 0]])
    assert np.allclose(EXERCISES["nb02_spotlight_weights"].solution(3, 4, 1, 1, 1), expected)


@pytest.mark.parametrize("wrong, phrase", WRONG_SPOTLIGHT)
def test_wrong_spotlight_is_rejected_with_specific_message(wrong, phrase):
    result = check("nb02_spotlight_weights", wrong)
    if phrase is None:
        assert result.passed, result.message
        return
    assert not result.passed
    assert phrase in result.message
    assert "数值不对 (wrong values)" not in result.message


def test_stub_returning_none_reports_not_finished():
    assert "尚未完成" in check("nb02_spotlight_weights", lambda h, w, cx, cy, r: None).message


def test_crashing_function_is_reported_with_the_case():
    message = check("nb02_spotlight_weights", _raise).message
    assert "RuntimeError: boom" in message and "测试用例" in message


def test_disc_in_the_wrong_place_is_named():
    message = check("nb02_spotlight_weights", lambda h, w, cx, cy, r: _normalised(_disc(h, w, cx + 1, cy, r))).message
    assert "wrong pixels in focus" in message


def test_failing_case_is_shown_small():
    message = check("nb02_spotlight_weights", WRONG_SPOTLIGHT[4][0]).message  # NaN on the empty disc
    assert "期望 (expected)" in message and "实际 (got)" in message and "h = 4, w = 4" in message
