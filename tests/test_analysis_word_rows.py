"""helpers.analysis.word_rows (03, 05a) and helpers.viz.panels.plot_alpha_table, against hand-made inputs."""

import math
from types import SimpleNamespace

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from helpers.analysis import word_rows as wr  # noqa: E402
from helpers.runtime.errors import HelpersError  # noqa: E402

# a translation of 2 source words (+ <eos> column) into 3 output words (+ <eos> row)
FAKE = SimpleNamespace(src_tokens=["i", "am"], tgt_tokens=["我", "是", "。"],
                       attention=np.array([[0.9, 0.1, 0.0], [0.3, 0.7, 0.0], [0.5, 0.5, 0.0], [0.2, 0.8, 0.0]]))


def test_word_row_is_the_first_step_of_the_word_over_real_source_words():
    assert np.allclose(wr.word_row(FAKE, "是"), [0.3, 0.7])  # t = 2, the <eos> column dropped
    assert wr.word_row(FAKE, "学生") is None


def test_row_entropy_matches_hand_values():
    assert wr.row_entropy([1.0, 0.0, 0.0]) == 0.0
    assert wr.row_entropy([0.25] * 4) == pytest.approx(math.log(4))
    assert wr.row_entropy([0.5, 0.5]) == pytest.approx(math.log(2))


def test_peak_rows_and_intervene_on_a_shipped_model():
    import helpers
    from helpers.analysis.probes import remove_peak, zero

    model = helpers.load_pretrained("luong-general")
    rows = wr.peak_rows({"g": model}, "i am a student .", "是")
    t = helpers.translate(model, "i am a student .")
    row = wr.word_row(t, "是")
    assert rows == [["g", " ".join(t.tgt_tokens), t.src_tokens[int(row.argmax())], float(row.max())]]
    assert wr.peak_rows({"g": model}, "i am a student .", "猫")[0][2:] == [None, None]
    out = wr.intervene(model, t, "是", {"原样": None, "去掉峰值": remove_peak, "全零": zero})
    weights, p, top = out["原样"]
    assert np.allclose(weights, row, atol=1e-5) and top == "是" and p > 0.5  # unchanged: the model's own step
    assert out["去掉峰值"][0][int(row.argmax())] == 0.0 and abs(float(out["去掉峰值"][0].sum()) - 1) < 1e-5
    assert float(np.abs(np.asarray(out["全零"][0])).sum()) == 0.0


def test_plot_alpha_table_writes_every_weight_and_checks_the_shape():
    from helpers.viz.panels import plot_alpha_table

    fig = plot_alpha_table([[0.25, 0.75], [1.0, 0.0]], ["a", "b"], ["x", "y"], "t")
    texts = sorted(t.get_text() for t in fig.axes[0].texts)
    assert texts == ["0.00", "0.25", "0.75", "1.00"]
    with pytest.raises(HelpersError):
        plot_alpha_table([[0.5, 0.5]], ["a", "b"], ["x", "y"], "t")


def test_plot_translation_pairs_draws_boxes_only_when_the_output_is_the_reference():
    import helpers
    from helpers.corpus import load_corpus
    from helpers.viz.panels import plot_translation_pairs

    model = helpers.load_pretrained("luong-general")
    pair = load_corpus("test")[0]
    fig, lines = plot_translation_pairs({"g": model}, [("例", pair)])
    out = helpers.translate(model, " ".join(pair.src))
    assert len(fig.axes) >= 1 and len(lines) == 1 and lines[0].startswith(f"例 | g: {out.text} | 参考译文")
    assert ("不同" in lines[0]) == (out.tgt_tokens != list(pair.tgt))
