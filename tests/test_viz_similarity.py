"""helpers.viz.similarity: the cosine matrix against a hand computation, and what the figure draws."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from helpers.errors import HelpersError  # noqa: E402
from helpers.viz.similarity import plot_source_similarity, source_similarity  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_source_similarity_matches_hand_cosines():
    info = np.array([[1.0, 0.0], [1.0, 1.0]])  # [T=2, H=2]
    keys = np.array([[2.0, 0.0], [0.0, 3.0], [-1.0, 0.0]])  # [S=3, H=2]
    r = 1 / np.sqrt(2)
    expected = np.array([[1.0, 0.0, -1.0], [r, r, -r]])
    assert np.allclose(source_similarity(info, keys), expected)


def test_source_similarity_of_a_zero_key_is_zero_not_nan():
    sim = source_similarity(torch.ones(1, 3), torch.tensor([[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]))
    assert sim[0, 1] == 0.0 and np.isfinite(sim).all()


def test_source_similarity_rejects_different_sizes():
    with pytest.raises(HelpersError, match="维度不同"):
        source_similarity(np.ones((2, 3)), np.ones((4, 5)))


def test_plot_frames_the_largest_value_of_every_row():
    m = np.array([[0.1, 0.9, 0.2], [0.8, 0.0, -0.3]])
    fig = plot_source_similarity({"panel": m}, ["a", "b", "c"], ["x", "y"])
    ax = fig.axes[0]
    framed = sorted((round(p.get_x() + 0.5), round(p.get_y() + 0.5)) for p in ax.patches)
    assert framed == [(0, 1), (1, 0)]  # (column, row): row 0 peaks at b, row 1 at a
    assert "0.90" in [t.get_text() for t in ax.texts]


def test_plot_draws_one_panel_per_matrix_and_a_colorbar():
    m = np.zeros((2, 3))
    fig = plot_source_similarity({"left": m, "right": m}, ["a", "b", "c"], ["x", "y"])
    assert [ax.get_title() for ax in fig.axes[:2]] == ["left", "right"]
    assert len(fig.axes) == 3


def test_plot_rejects_a_matrix_that_does_not_fit_the_tokens():
    with pytest.raises(HelpersError, match="形状"):
        plot_source_similarity({"bad": np.zeros((3, 3))}, ["a", "b", "c"], ["x", "y"])
