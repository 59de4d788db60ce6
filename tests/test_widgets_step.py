"""helpers.widgets.step, headless: StepThrough (notebook 05, Fig. 9-25) and trace_decoding."""

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import helpers  # noqa: E402
from helpers.runtime.errors import HelpersError  # noqa: E402
from helpers.widgets import StepThrough  # noqa: E402
from helpers.widgets.step import plot_attention_step_diagram, trace_decoding  # noqa: E402

SENTENCE = "i am a student ."


@pytest.fixture(scope="module")
def general():
    return helpers.load_pretrained("luong-general")


@pytest.fixture(scope="module")
def reference(general):
    return helpers.translate(general, SENTENCE)


@pytest.fixture(scope="module")
def _shared():
    return StepThrough(SENTENCE, score="luong-general", step=1)


@pytest.fixture()
def widget(_shared):
    """One widget for the module, put back to its starting state before each test."""
    _shared.sentence.value = SENTENCE
    _shared.score.value = "luong-general"
    _shared.step.value = 1
    return _shared


def _png(w):
    return bytes(w.image.value)


# --------------------------------------------------------------------------- controls
@pytest.mark.parametrize("control, value", [
    ("step", 3),
    ("score", "luong-dot"),
    ("score", "luong-concat"),
    ("sentence", "tom ate an apple yesterday ."),
])
def test_every_control_changes_the_png(widget, control, value):
    before = _png(widget)
    getattr(widget, control).value = value
    assert _png(widget) != before


def test_step_slider_covers_every_decoding_step_including_eos(widget, reference):
    assert (widget.step.min, widget.step.max) == (1, len(reference.tgt_tokens) + 1)


def test_alpha_of_every_step_equals_the_models_own_attention(widget, reference):
    for t in range(1, widget.step.max + 1):
        widget.step.value = t
        np.testing.assert_allclose(widget.trace.alpha, reference.attention[t - 1], atol=1e-6)


def test_alpha_of_the_current_step_sums_to_one(widget):
    widget.step.value = 2
    assert abs(float(widget.trace.alpha.sum()) - 1.0) < 1e-5


def test_top1_token_is_the_greedy_output_token_of_that_step(widget, reference):
    expected = reference.tgt_tokens + ["<eos>"]
    got = []
    for t in range(1, widget.step.max + 1):
        widget.step.value = t
        got.append(widget.trace.token)
    assert got == expected


def test_top5_probabilities_are_sorted_and_at_most_one(widget):
    widget.step.value = 2
    p = widget.trace.top_probs
    assert len(widget.trace.top_tokens) == 5 and np.all(np.diff(p) <= 0) and 0 < p.sum() <= 1 + 1e-6


def test_readout_names_the_peak_source_word_and_the_output(widget, reference):
    t = reference.tgt_tokens.index("是") + 1
    widget.step.value = t
    peak = reference.src_tokens[int(np.argmax(reference.attention[t - 1]))]
    assert f"{peak} " in widget.readout.value and "是" in widget.readout.value


def test_switching_the_score_uses_that_pretrained_model(widget):
    widget.score.value = "luong-dot"
    widget.step.value = 1
    other = helpers.translate(helpers.load_pretrained("luong-dot"), SENTENCE)
    np.testing.assert_allclose(widget.trace.alpha, other.attention[0], atol=1e-6)


def test_a_shorter_sentence_clamps_the_step_and_redraws(widget):
    widget.sentence.value = "she reads books in the library every day ."
    widget.step.value = widget.step.max
    widget.sentence.value = "do you like tea ?"
    ref = helpers.translate(helpers.load_pretrained("luong-general"), "do you like tea ?")
    assert widget.step.max == len(ref.tgt_tokens) + 1
    assert widget.step.value <= widget.step.max
    np.testing.assert_allclose(widget.trace.alpha, ref.attention[widget.step.value - 1], atol=1e-6)


# --------------------------------------------------------------------------- redraw only what changes
def test_moving_the_slider_draws_no_full_figure(widget, monkeypatch):
    widget.step.value = 2  # background of this sentence and model in place
    full_draws = []
    monkeypatch.setattr(widget._fig.canvas, "draw", lambda *a, **k: full_draws.append(1))
    for value in (3, 1, widget.step.max, 2):
        before = bytes(widget.image.value)
        widget.step.value = value
        assert bytes(widget.image.value) != before
    assert full_draws == []  # axes, ticks and labels came from the cached background


def test_a_blitted_step_is_the_same_picture_as_a_full_drawing_of_it(widget):
    # the widget lays out this sentence's background while at step 4 (coming from a longer sentence),
    # then gets to step 3 by moving the slider (background reused, only the step's artists drawn);
    # a full layout and drawing of the same step from scratch gives the same picture
    widget.sentence.value = "she reads books in the library every day ."
    widget.step.value = 4
    widget.sentence.value = SENTENCE
    assert widget.step.value == 4
    widget.step.value = 2
    widget.step.value = 3
    blitted = bytes(widget.image.value)
    widget._background, widget._relayout = None, True  # forget the background and the layout
    widget._draw()
    import io

    from PIL import Image

    a, b = (np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int) for png in (blitted, bytes(widget.image.value)))
    assert a.shape == b.shape
    # the same picture; text drawn over the cached background may differ in a few anti-aliased pixels
    # (seen with the corpus-3.0 models: 50 pixels, none by more than 8 of 255)
    assert np.abs(a - b).max() <= 8


def test_a_fresh_widget_draws_the_same_picture(widget):
    import io

    from PIL import Image

    widget.step.value = 2
    widget.step.value = 3
    fresh = StepThrough(SENTENCE, score="luong-general", step=3)
    a, b = (np.asarray(Image.open(io.BytesIO(bytes(w.image.value))).convert("RGB"), dtype=int) for w in (widget, fresh))
    assert a.shape == b.shape
    # the same picture; a new figure may differ in a few anti-aliased pixels (a byte-for-byte comparison
    # failed once in a full-suite run and never alone), so this compares pixels with a small tolerance
    assert np.mean(np.abs(a - b).max(axis=2) > 8) < 0.001


def test_the_score_axis_keeps_one_range_for_every_step(widget):
    ranges = set()
    for value in range(1, widget.step.max + 1):
        widget.step.value = value
        ranges.add(widget._ax_score.get_ylim())
    all_scores = np.concatenate([s.scores for s in widget._trace.steps])
    (low, high), = ranges
    assert low <= all_scores.min() and high >= all_scores.max()  # every bar of every step fits


# --------------------------------------------------------------------------- bad input
BAD = ["", "   ", "。。。", "我是一名学生", "123", "tea " * 300]


@pytest.mark.parametrize("text", BAD, ids=["empty", "spaces", "punctuation", "chinese", "digits", "hundreds"])
def test_bad_input_gives_a_message_and_the_widget_keeps_working(widget, text):
    before, alpha = _png(widget), widget.trace.alpha.copy()
    widget.sentence.value = text
    assert "color:#b00" in widget.message.value
    assert _png(widget) == before and np.array_equal(widget.trace.alpha, alpha)
    widget.sentence.value = "tom ate an apple yesterday ."
    assert "color:#b00" not in widget.message.value and _png(widget) != before


def test_html_input_is_escaped_in_the_message(widget):
    widget.sentence.value = "<b>bold</b>"
    assert "<b>bold" not in widget.message.value and "&lt;" in widget.message.value


@pytest.mark.parametrize("text", ["i am a 🐱 .", "<script>alert('x')</script>", "i am a studnet ."],
                         ids=["emoji", "html", "typo"])
def test_an_unknown_word_is_read_as_unk_and_named_in_the_message(widget, text):
    widget.sentence.value = text
    assert "color:#b00" not in widget.message.value and "unknown words" in widget.message.value
    assert "<script" not in widget.message.value


def test_a_trace_copies_the_source_word_of_largest_alpha_for_unk():
    from helpers.translation.copying import CopiedWord
    from helpers.widgets.step import DecodingTrace, StepTrace

    def step(t, token, alpha):
        return StepTrace(t=t, prev_token="", h_t=np.zeros(2), scores=np.zeros(3), alpha=np.array(alpha),
                         context=np.zeros(2), h_tilde=np.zeros(2), top_tokens=[token], top_probs=np.ones(1))

    trace = DecodingTrace("dot", ["hi", "xiaoming", "."], [step(1, "你好", [0.8, 0.1, 0.1]),
                                                           step(2, "<unk>", [0.1, 0.7, 0.2]),
                                                           step(3, "<eos>", [0.1, 0.1, 0.8])],
                          src_surfaces=["Hi", "Xiaoming", "."])
    assert trace.copied == [CopiedWord(1, 1, "Xiaoming")] and trace.text == "你好Xiaoming"


def test_unknown_word_message_suggests_close_words(widget):
    widget.sentence.value = "i am a studnet ."
    assert "studnet" in widget.message.value and "student" in widget.message.value


def test_long_input_message_says_how_long_is_allowed(widget):
    widget.sentence.value = "tea " * 300
    assert "300" in widget.message.value and "30" in widget.message.value


def test_unknown_score_name_is_refused_with_a_helpers_error():
    with pytest.raises(HelpersError, match="score"):
        StepThrough(score="luong-fancy")


# --------------------------------------------------------------------------- display, models
def test_display_bundle_has_a_static_png(widget):
    assert "image/png" in widget._repr_mimebundle_()


def test_a_session_trained_model_can_be_passed_in():
    from helpers.train import make_model

    w = StepThrough(SENTENCE, score="luong-general", models={"luong-general": make_model("luong-general", seed=3)})
    assert [value for _, value in w.score.options] == ["luong-general"] and _png(w)


def test_a_scaled_score_is_labelled_as_the_extra_it_is_not_as_eq_9_40():
    from helpers.train import make_model

    scaled = StepThrough(SENTENCE, score="luong-general",
                         models={"luong-general": make_model("luong-general", seed=3, scaled_score=True)})
    plain = StepThrough(SENTENCE, score="luong-general", models={"luong-general": make_model("luong-general", seed=3)})
    assert "√H" in scaled._ax_score.get_title() and "(E1)" in scaled._ax_score.get_title()
    assert plain._ax_score.get_title() == "打分（式 (9-40)）"


# --------------------------------------------------------------------------- trace_decoding
def test_trace_h_tilde_is_tanh_of_W_c_times_context_then_state(general):
    st = trace_decoding(general, SENTENCE).steps[1]
    W_c = general.decoder.W_c.weight.detach().numpy()  # [H, 2H]
    expected = np.tanh(W_c @ np.concatenate([st.context, st.h_t]))
    np.testing.assert_allclose(st.h_tilde, expected, atol=1e-5)


def test_trace_alpha_is_the_softmax_of_the_scores(general):
    st = trace_decoding(general, SENTENCE).steps[0]
    e = np.exp(st.scores - st.scores.max())
    np.testing.assert_allclose(st.alpha, e / e.sum(), atol=1e-6)


def test_trace_scores_are_h_t_W_a_h_bar_over_sqrt_H(general):
    import torch

    with torch.no_grad():
        src = torch.tensor([general.src_vocab.encode(SENTENCE.split())])
        h_bar = general.start(src, torch.tensor([src.shape[1]])).encoder_outputs[0].numpy()  # [S, H]
    st = trace_decoding(general, SENTENCE).steps[0]
    score = general.decoder.attention.score
    W_a = score.W_a.detach().numpy()
    scale = np.sqrt(h_bar.shape[1]) if score.scaled else 1.0  # the shipped luong-general is scaled
    expected = [float(st.h_t @ W_a @ h_bar[s]) / scale for s in range(h_bar.shape[0])]
    np.testing.assert_allclose(st.scores, expected, atol=1e-4)


def test_trace_refuses_a_model_without_luong_attention():
    with pytest.raises(HelpersError, match="Luong"):
        trace_decoding(helpers.load_pretrained("bahdanau"), SENTENCE)


def test_diagram_draws_fig_9_25_with_the_given_weights():
    fig = plot_attention_step_diagram(["i", "am", "a", "student", "."], [0.05, 0.8, 0.05, 0.05, 0.05])
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "图 9-25" in fig.axes[0].get_title() and "0.80" in texts


def test_diagram_refuses_weights_of_the_wrong_length():
    with pytest.raises(HelpersError, match="alpha"):
        plot_attention_step_diagram(["i", "am"], [1.0])


def test_bench_measures_the_step_through_latency_without_errors():
    from helpers.tools.bench import (
        GOALS,
        measure_step_through_latency,
        step_through_figures,
        step_through_rows,
    )

    lat = measure_step_through_latency(n_steps=3, n_sentences=1)
    assert lat["n_steps"] == 3 and lat["n_sentences"] == 1 and lat["errors"] == ""
    assert lat["step_median_ms"] > 0 and lat["sentence_median_ms"] > 0
    figures = step_through_figures(quick=True, explorer_step_ms=10.0)
    assert figures["step_through_vs_explorer"] == figures["step_through_latency_ms_median"] / 10.0
    rows = step_through_rows(figures, lambda value, unit="": f"{value:.2f}{unit}")
    assert rows[0][0].startswith("StepThrough") and rows[0][2] == GOALS["step_through_latency_ms_median"]


def test_the_score_dropdown_is_wide_enough_for_its_longest_label(widget):
    """Measured with the bundled font at JupyterLab's 13 px: label + description + the select's arrow."""
    import warnings

    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    from helpers.viz import FONT_PATH
    from helpers.widgets.step import SCORE_LABELS

    font = FontProperties(fname=str(FONT_PATH))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a glyph the subset lacks still counts with the fallback's width
        widths = {text: TextPath((0, 0), text, size=13, prop=font).get_extents().width
                  for text in [*SCORE_LABELS.values(), widget.score.description]}
    needed = max(widths[label] for label in SCORE_LABELS.values()) + widths[widget.score.description] + 40
    assert widget.score.layout.width.endswith("px")
    assert float(widget.score.layout.width[:-2]) >= needed > 300  # ipywidgets' default 300 px would cut it
    assert widget.score.layout.max_width == "100%"
