"""Heatmaps of corpus pairs (helpers.viz.plots, used by 07): gold overlay and AER only when the output
equals the reference, panel sizes, the gallery layout."""

import dataclasses

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

import helpers  # noqa: E402
from helpers.corpus import Pair  # noqa: E402
from helpers.runtime.errors import HelpersError  # noqa: E402
from helpers.viz.plots import attention_panel_size, plot_attention_gallery, plot_pair_attention  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def model():
    return helpers.load_pretrained("luong-general")


SRC = ("i", "am", "a", "student", ".")


def _own_output_pair(model, sure):
    """A pair whose reference is the model's own output, so the output always equals it."""
    t = helpers.translate(model, " ".join(SRC))
    return Pair(SRC, tuple(t.tgt_tokens), frozenset(sure), frozenset(sure)), t


def _red_boxes(ax):
    return [p for p in ax.patches if isinstance(p, Rectangle) and p.get_edgecolor()[:3] == matplotlib.colors.to_rgb("tab:red")]


def test_panel_size_grows_by_one_cell_per_token():
    assert attention_panel_size(0, 0) == (1.2, 1.3)
    w, h = attention_panel_size(5, 4)
    assert w == pytest.approx(1.2 + 5 * 0.42) and h == pytest.approx(1.3 + 4 * 0.36)


def test_matching_output_gets_gold_boxes_and_its_aer_in_the_title(model):
    pair, t = _own_output_pair(model, {(0, 0), (1, 1)})
    fig, ax = plt.subplots()
    t_out, score = plot_pair_attention(model, pair, ax=ax, label="例句", name="luong-general")
    # by hand: A = the arg-max source position of each target row; S = P = {(0, 0), (1, 1)}
    A = {(int(np.argmax(t.attention[j, : len(SRC)])), j) for j in range(len(t.tgt_tokens))}
    S = {(0, 0), (1, 1)}
    expected = 1 - 2 * len(A & S) / (len(A) + len(S))
    assert t_out.tgt_tokens == t.tgt_tokens
    assert score == pytest.approx(expected)
    assert ax.get_title() == f"例句\nluong-general   AER = {expected:.2f}"
    assert len(_red_boxes(ax)) == 2 * len(S)  # each link drawn as sure and as possible


def test_different_output_gets_no_gold_and_no_aer(model):
    pair, _ = _own_output_pair(model, {(0, 0)})
    wrong = dataclasses.replace(pair, tgt=pair.tgt[:-1] + ("？",))
    fig, ax = plt.subplots()
    _, score = plot_pair_attention(model, wrong, ax=ax, name="luong-general")
    assert score is None
    assert ax.get_title() == "luong-general   译文≠参考，不计 AER"
    assert _red_boxes(ax) == []


def test_without_an_axes_it_makes_a_figure_of_the_panel_size(model):
    pair, t = _own_output_pair(model, set())
    _, _ = plot_pair_attention(model, pair)
    fig = plt.gcf()
    assert tuple(fig.get_size_inches()) == pytest.approx(attention_panel_size(len(SRC), len(t.tgt_tokens)))


def test_gallery_puts_one_panel_per_pair_in_one_row(model):
    short, _ = _own_output_pair(model, set())
    t_long = helpers.translate(model, "tom ate an apple yesterday .")
    long = Pair(tuple(t_long.src_tokens), tuple(t_long.tgt_tokens), frozenset(), frozenset())
    fig, results = plot_attention_gallery(model, [short, long], ["短句", "长一点"], name="luong-general")
    assert len(fig.axes) == 2 and len(results) == 2
    assert [ax.get_title().split("\n")[0] for ax in fig.axes] == ["短句", "长一点"]
    widths = [attention_panel_size(len(p.src), len(p.tgt))[0] for p in (short, long)]
    assert fig.get_size_inches()[0] == pytest.approx(sum(widths))


def test_gallery_needs_one_label_per_pair(model):
    pair, _ = _own_output_pair(model, set())
    with pytest.raises(HelpersError, match="one label per pair"):
        plot_attention_gallery(model, [pair, pair], ["只有一个"])
