"""helpers.viz.panels: Luong-Fig.-7-style panels (global, local-m, local-p, gold side by side)."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402

from helpers.viz.panels import gold_matrix, plot_alignment_panels  # noqa: E402


def test_gold_matrix_by_hand():
    # links are (English i, Chinese j); the matrix is [Chinese, English]
    m = gold_matrix(3, 2, sure={(0, 0), (2, 1)}, possible={(0, 0), (1, 1), (2, 1)})
    assert m.tolist() == [[1.0, 0.0, 0.0], [0.0, 0.5, 1.0]]


def test_panels_one_per_matrix_and_a_gold_panel_with_titles():
    import matplotlib.pyplot as plt

    w = np.full((2, 3), 1 / 3)
    fig = plot_alignment_panels({"全局": w, "local-m": w}, ["a", "b", "c"], ["甲", "乙"], sure={(0, 0)})
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert titles == ["全局", "local-m", "标准对齐（gold）"]
    plt.close(fig)


def test_panels_without_gold_and_the_padding_bars():
    import matplotlib.pyplot as plt

    from helpers.viz.panels import plot_padding_bars

    w = np.full((2, 3), 1 / 3)
    fig = plot_alignment_panels({"a": w, "b": w, "c": w}, ["x", "y", "z"], ["甲", "乙"], gold_panel=False)
    assert [ax.get_title() for ax in fig.axes if ax.get_title()] == ["a", "b", "c"]
    bars = plot_padding_bars([0.3, 0.3, 0.2, 0.2], [0.5, 0.5, 0, 0], ["i", "am", "<pad>", "<pad>"], 2, title="t")
    assert [ax.get_title() for ax in bars.axes] == ["不加掩码：填充位置也分到了权重", "加掩码：填充位置的权重恰好为 0"]
    assert bars._suptitle.get_text() == "t"
    plt.close("all")
