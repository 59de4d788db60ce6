"""The bundled Chinese font renders real glyphs, with no 'Glyph missing' warning."""

import warnings

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from helpers import viz  # noqa: E402


def _render(text: str) -> np.ndarray:
    viz.setup_chinese_font()
    fig = Figure(figsize=(2, 1), dpi=80)
    canvas = FigureCanvasAgg(fig)
    fig.text(0.05, 0.3, text, fontsize=28)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., 0].copy()


def test_chinese_tick_labels_render_without_glyph_warnings():
    viz.setup_chinese_font()
    fig = Figure(figsize=(4, 2))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.bar(range(4), [1, 2, 3, 4])
    ax.set_xticks(range(4), ["我", "是", "一名", "学生"])
    ax.set_title("注意力权重 (attention weights) α −1，。？")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig.canvas.draw()


def test_two_chinese_words_render_to_different_pixels():
    first, second = _render("注意"), _render("学生")
    assert (first < 250).sum() > 100, "nothing was drawn"
    assert not np.array_equal(first, second)


def test_chinese_glyph_is_not_the_missing_glyph_box():
    # U+E000 is a private-use code point no font here has: it renders as the .notdef box.
    viz.setup_chinese_font()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tofu = _render("\ue000\ue000")
    assert not np.array_equal(_render("学生"), tofu)


def test_setup_is_idempotent_and_only_touches_font_settings():
    before = {k: v for k, v in matplotlib.rcParams.items() if not k.startswith(("font.", "axes.unicode"))}
    assert viz.setup_chinese_font() == viz.setup_chinese_font() == viz.FONT_FAMILY
    after = {k: v for k, v in matplotlib.rcParams.items() if not k.startswith(("font.", "axes.unicode"))}
    assert before == after


def test_missing_font_file_says_what_to_run(monkeypatch, tmp_path):
    monkeypatch.setattr(viz, "FONT_PATH", tmp_path / "gone.otf")
    with pytest.raises(viz.FontMissingError, match="build_font.py"):
        viz.setup_chinese_font()


def test_font_licence_ships_next_to_the_font():
    assert viz.FONT_PATH.is_file()
    assert "SIL OPEN FONT LICENSE Version 1.1" in (viz.FONT_DIR / "OFL.txt").read_text(encoding="utf-8")
