"""helpers.extras.kernel_regression: Nadaraya-Watson as soft attention (notebook 04), checked by hand."""

import math

import matplotlib
import numpy as np
import pytest

from helpers.extras.kernel_regression import kernel_weights, nadaraya_watson, toy_data
from helpers.viz.teaching import plot_kernel_regression

matplotlib.use("Agg")


def test_a_query_halfway_between_two_points_averages_them():
    pred, alpha = nadaraya_watson(0.5, [0.0, 1.0], [0.0, 2.0], tau=1.0)
    assert alpha[0] == pytest.approx([0.5, 0.5]) and pred[0] == pytest.approx(1.0)


def test_weights_by_hand():
    # at x = 0 with τ = 1: scores 0 and -1, α_0 = 1 / (1 + e^-1) = 0.7311
    pred, alpha = nadaraya_watson(0.0, [0.0, 1.0], [0.0, 2.0], tau=1.0)
    assert alpha[0, 0] == pytest.approx(1 / (1 + math.exp(-1)), abs=1e-9)
    assert pred[0] == pytest.approx(2 * math.exp(-1) / (1 + math.exp(-1)), abs=1e-9)   # 0.5379, not a y_i


def test_small_tau_copies_the_nearest_point_and_large_tau_the_mean():
    x, y = [0.0, 1.0, 3.0], [1.0, 5.0, -2.0]
    assert nadaraya_watson(0.9, x, y, tau=1e-3)[0][0] == pytest.approx(5.0)
    assert nadaraya_watson(0.9, x, y, tau=1e6)[0][0] == pytest.approx(4.0 / 3.0, abs=1e-4)


def test_far_queries_do_not_overflow_and_bad_tau_is_refused():
    alpha = kernel_weights([100.0], [0.0, 1.0], tau=0.01)
    assert np.isfinite(alpha).all() and alpha[0, 1] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="τ"):
        kernel_weights(0.0, [0.0], tau=0.0)


def test_plot_draws_one_curve_per_tau():
    x, y = toy_data()
    fig = plot_kernel_regression(x, y, taus=(0.1, 1.0))
    assert len(x) == 12 and len(fig.axes[0].get_lines()) == 2 + 1   # two curves and the marker line
