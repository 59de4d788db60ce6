"""helpers.viz.paths: the two computation paths in the order of Luong et al. 2015, §3.1."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from helpers.viz.paths import PATHS, plot_computation_paths  # noqa: E402


def test_luong_queries_the_new_state_and_bahdanau_the_previous_one():
    luong, bahdanau = ([label for label, _, _ in boxes] for boxes in PATHS.values())
    assert luong == ["hₜ", "aₜ", "cₜ", "h̃ₜ", "yₜ"]
    assert bahdanau == ["sₜ₋₁", "aₜ", "cₜ", "sₜ", "yₜ"]


def test_figure_draws_every_box_and_one_arrow_between_neighbours():
    fig = plot_computation_paths()
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    for boxes in PATHS.values():
        for label, note, _ in boxes:
            assert label in texts and note in texts
    arrows = [c for c in ax.get_children() if type(c).__name__ == "Annotation" and c.arrow_patch is not None]
    assert len(arrows) == sum(len(b) - 1 for b in PATHS.values())
    plt.close(fig)
