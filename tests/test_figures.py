"""helpers.viz.teaching: the generated lake scene, the spotlight, and the static teaching figures."""

import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from helpers.runtime.errors import HelpersError  # noqa: E402
from helpers.viz import teaching as figures  # noqa: E402

TITLES = ["可爱猫咪学钢琴", "小狗学游泳", "湖边白鹭捕鱼", "注意力入门教程", "机器翻译实战", "钢琴入门教程"]


def _drawn_without_warnings(make):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = make()
        fig.canvas.draw()
    plt.close(fig)
    return fig


def test_lake_scene_is_deterministic():
    assert np.array_equal(figures.lake_scene(), figures.lake_scene())


def test_lake_scene_is_an_rgb_array_in_unit_range():
    img = figures.lake_scene()
    assert img.shape == (240, 360, 3)
    assert img.min() >= 0.0 and img.max() <= 1.0


def test_lake_scene_scales_with_width():
    assert figures.lake_scene(width=180).shape == (120, 180, 3)


def test_egret_is_white_at_egret_xy():
    img = figures.lake_scene()
    x, y = figures.EGRET_XY
    row, col = int(y * 240) + 10, int(x * 360) + 11  # the body, just below and right of EGRET_XY
    assert img[row, col].min() > 0.85


def test_lake_scene_rejects_a_silly_width():
    with pytest.raises(HelpersError, match="width"):
        figures.lake_scene(width=5)


def test_spotlight_weights_sum_to_one():
    weights = figures.spotlight_weights((40, 60), 0.5, 0.5, 0.2)
    assert weights.shape == (40, 60)
    assert abs(weights.sum() - 1.0) < 1e-9


def test_spotlight_keeps_the_focus_and_dims_the_rest_to_dim():
    img = np.full((40, 60, 3), 0.8)
    out = figures.apply_spotlight(img, x=0.5, y=0.5, radius=0.2, dim=0.25)
    assert abs(out[20, 30, 0] - 0.8) < 1e-3  # centre: untouched
    assert abs(out[0, 0, 0] - 0.8 * 0.25) < 1e-3  # corner: dimmed to 25 %


def test_apply_spotlight_rejects_a_grey_image_with_a_bilingual_message():
    with pytest.raises(HelpersError, match=r"RGB.*\[H, W, 3\]"):
        figures.apply_spotlight(np.zeros((10, 10)), 0.5, 0.5, 0.1)


def test_spotlight_figure_has_three_panels_and_no_warnings():
    fig = _drawn_without_warnings(figures.plot_spotlight)
    assert isinstance(fig, Figure)
    assert len([ax for ax in fig.axes if ax.images]) == 3


def test_spotlight_figure_dims_the_middle_panel_to_the_given_dim():
    img = np.full((40, 60, 3), 0.8)
    fig = figures.plot_spotlight(img, x=0.5, y=0.5, radius=0.2, dim=0.5)
    middle = np.asarray(fig.axes[1].images[0].get_array())
    plt.close(fig)
    assert abs(middle[0, 0, 0] - 0.8 * 0.5) < 1e-3  # corner: half as bright
    assert abs(middle[20, 30, 0] - 0.8) < 1e-3  # centre: untouched


def test_timeline_names_james_bahdanau_luong_and_the_transformer():
    fig = _drawn_without_warnings(figures.plot_timeline)
    text = " ".join(t.get_text() for t in fig.axes[0].texts)
    for name in ["William James", "Mnih", "Bahdanau", "Luong", "Transformer", "语音识别", "图像描述", "文本摘要", "文本分类"]:
        assert name in text


def test_retrieval_pipeline_draws_every_title():
    fig = _drawn_without_warnings(lambda: figures.plot_retrieval_pipeline(
        "钢琴 入门", TITLES, [1, 0, 0, 1, 0, 2], [0.2, 0.1, 0.1, 0.2, 0.1, 0.3], ["内容"] * 6, "结果"))
    text = [t.get_text() for t in fig.axes[0].texts]
    assert all(title in text for title in TITLES)


def test_retrieval_pipeline_rejects_mismatched_lengths():
    with pytest.raises(HelpersError):
        figures.plot_retrieval_pipeline("q", TITLES, [1, 2], [0.5, 0.5], ["v"] * 6, "r")


def test_temperature_sweep_has_one_panel_per_temperature_plus_hard():
    fig = _drawn_without_warnings(lambda: figures.plot_temperature_sweep([1, 0, 2], ["甲", "乙", "丙"], (2.0, 0.5)))
    assert len(fig.axes) == 3
    hard_widths = [patch.get_width() for patch in fig.axes[-1].patches]
    assert hard_widths == [0.0, 0.0, 1.0]


def test_temperature_sweep_rejects_zero_temperature():
    with pytest.raises(HelpersError, match="温度"):
        figures.plot_temperature_sweep([1, 2], ["甲", "乙"], (1.0, 0.0))
