"""Shared static plots (helpers.viz.plots): what each figure draws, checked on its artists, and bad input."""

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from helpers.runtime.errors import HelpersError  # noqa: E402
from helpers.train import History  # noqa: E402
from helpers.viz.plots import (  # noqa: E402
    LiveLossCurve,
    bleu_by_length_series,
    bucket_label,
    markdown_table,
    plot_attention_row,
    plot_bleu_by_length,
    plot_length_histograms,
    plot_loss_curves,
    plot_phenomena,
    plot_seq2seq_diagram,
    plot_similarity,
    smooth,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _texts(fig):
    return [t.get_text() for ax in fig.axes for t in ax.texts]


RECORD = {
    "buckets": ["3-5", "6-10", "21-30"],
    "models": {
        "none": {"by_length": {"3-5": {"n": 4, "char_bleu": 0.9}, "6-10": {"n": 7, "char_bleu": 0.8},
                               "21-30": {"n": 2, "char_bleu": 0.3}}},
        "bahdanau": {"by_length": {"3-5": {"n": 4, "char_bleu": 1.0}, "6-10": {"n": 7, "char_bleu": 0.95},
                                   "21-30": {"n": 2, "char_bleu": None}}},
    },
}


def test_series_from_record_gives_buckets_scores_and_counts():
    buckets, scores, counts = bleu_by_length_series(RECORD)
    assert buckets == [(3, 5), (6, 10), (21, 30)]
    assert scores == {"none": [0.9, 0.8, 0.3], "bahdanau": [1.0, 0.95, None]}
    assert counts == [4, 7, 2]


def test_series_keeps_only_the_requested_models():
    _, scores, _ = bleu_by_length_series(RECORD, models=["bahdanau"])
    assert list(scores) == ["bahdanau"]


def test_series_rejects_something_that_is_not_a_record():
    with pytest.raises(HelpersError, match="make evaluate"):
        bleu_by_length_series({"models": {}})


def test_bleu_plot_draws_one_line_per_model_with_gaps_for_empty_buckets():
    fig = plot_bleu_by_length([(3, 5), (6, 10), (21, 30)], {"none": [0.9, 0.8, 0.3], "bahdanau": [1.0, 0.95, None]})
    lines = fig.axes[0].get_lines()
    assert len(lines) == 2
    assert list(lines[0].get_ydata()) == [0.9, 0.8, 0.3]
    assert math.isnan(lines[1].get_ydata()[2])


def test_bleu_plot_shades_lengths_beyond_training():
    fig = plot_bleu_by_length([(3, 5), (21, 30), (31, 40)], {"none": [0.9, 0.3, 0.1]}, train_max=20)
    assert len(fig.axes[0].patches) == 1  # the grey band starting at the first bucket past 20 words
    assert "比训练句子长得多 (21–40 词)" in _texts(fig)


# corpus 3.0's layout: four test buckets inside the training lengths (3-40), two long buckets beyond them
RECORD_30 = {
    "buckets": ["3-10", "11-20", "21-30", "31-40", "41-50", "51-60"],
    "models": {name: {"by_length": {b: {"n": n, "char_bleu": v} for b, n, v in
                                    zip(["3-10", "11-20", "21-30", "31-40", "41-50", "51-60"],
                                        [300, 300, 200, 200, 372, 128], values)}}
               for name, values in {"none": [0.74, 0.77, 0.72, 0.53, 0.39, 0.32],
                                    "bahdanau": [0.97, 0.98, 0.97, 0.93, 0.91, 0.82]}.items()},
}


def test_bleu_plot_of_a_corpus_30_record_marks_the_training_range_and_the_much_longer_split():
    buckets, scores, counts = bleu_by_length_series(RECORD_30)
    assert buckets[-1] == (51, 60) and counts == [300, 300, 200, 200, 372, 128]
    fig = plot_bleu_by_length(buckets, scores, counts=counts, train_max=40)
    ax = fig.axes[0]
    assert [list(line.get_ydata()) for line in ax.get_lines()] == [scores["none"], scores["bahdanau"]]
    (band,) = ax.patches                               # shaded from the edge of bucket 41-50 (x = 4) to the end
    x0, x1 = band.get_x(), band.get_x() + band.get_width()
    assert (x0, x1) == (3.5, 5.5)
    assert "比训练句子长得多 (41–60 词)" in _texts(fig)
    assert "训练句子的长度 (3–40 词)" in _texts(fig)
    (bracket,) = ax.collections                       # spans the four training buckets (x = 0..3)
    xs = bracket.get_segments()[0][:, 0]
    assert min(xs) == -0.45 and max(xs) == 3.45
    assert [t.get_text() for t in ax.get_xticklabels()][4] == "41-50\n(372 句)"


def test_bleu_plot_labels_buckets_with_sentence_counts():
    fig = plot_bleu_by_length([(3, 5), (6, 10)], {"none": [0.9, 0.8]}, counts=[4, 7])
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == ["3-5\n(4 句)", "6-10\n(7 句)"]


def test_bleu_plot_rejects_a_score_list_of_the_wrong_length():
    with pytest.raises(HelpersError, match="one score per bucket"):
        plot_bleu_by_length([(3, 5), (6, 10)], {"none": [0.9]})


def test_bucket_label_joins_bounds():
    assert bucket_label((31, 40)) == "31-40" and bucket_label("3-5") == "3-5"


def test_diagram_without_attention_names_only_the_last_state():
    fig = plot_seq2seq_diagram(["i", "am", "."], ["我", "是", "。"])
    texts = _texts(fig)
    assert "h̄₃" in texts and any("只拿到编码器最后一个隐含状态" in t for t in texts)
    assert not any("回看" in t for t in texts)


def test_diagram_with_attention_links_the_step_to_every_encoder_state():
    fig = plot_seq2seq_diagram(["i", "am", "a", "."], ["我", "是", "一名", "。"], attention=True, step=1)
    dashed = [a for a in fig.axes[0].texts if getattr(a, "arrow_patch", None) is not None
              and a.arrow_patch.get_linestyle() == "--"]
    assert len(dashed) == 4
    assert any("输出“是”" in t for t in _texts(fig))


def test_diagram_caption_writes_the_subscript_as_a_glyph():
    # Not mathtext: a "$...$" string is drawn wholly by the math fonts, which have no Chinese glyphs.
    fig = plot_seq2seq_diagram(["i", "am", "."], ["我", "是", "。"], attention=True, step=0)
    caption = next(t for t in _texts(fig) if "回看" in t)
    assert "h̄ₛ" in caption and "$" not in caption and "_" not in caption
    fig.canvas.draw()  # every glyph present (a missing glyph warning is an error in this suite)


def test_diagram_rejects_a_step_outside_the_output():
    with pytest.raises(HelpersError):
        plot_seq2seq_diagram(["i"], ["我"], attention=True, step=3)


def test_smooth_is_a_trailing_moving_average():
    assert smooth([1, 2, 3, 4], window=2).tolist() == [1.0, 1.5, 2.5, 3.5]
    assert smooth([], window=3).size == 0


def test_loss_plot_draws_raw_and_smoothed_loss_and_validation_bleu():
    h = History(step_loss=[3.0, 2.0, 1.0], val_step=[3], val_bleu=[0.5])
    fig = plot_loss_curves({"none": h}, window=2)
    loss_ax, bleu_ax = fig.axes
    assert [list(line.get_ydata()) for line in loss_ax.get_lines()] == [[3.0, 2.0, 1.0], [3.0, 2.5, 1.5]]
    assert list(bleu_ax.get_lines()[0].get_ydata()) == [0.5]


def test_live_curve_records_histories_and_throttles_redraws():
    curve = LiveLossCurve(min_interval=3600, show=False)
    update = curve.callback("bahdanau")
    update(History(step_loss=[2.0]))
    update(History(step_loss=[2.0, 1.0]))
    assert curve.redraws == 1 and curve.histories["bahdanau"].step_loss == [2.0, 1.0]
    fig = curve.figure()
    assert len(fig.axes[0].get_lines()) == 2


def test_attention_row_marks_the_largest_weight_in_red():
    fig = plot_attention_row([0.1, 0.7, 0.2, 0.0], ["i", "am", "a", "<eos>"][:3] + ["."], "是")
    colors = [tuple(np.round(p.get_facecolor()[:3], 3)) for p in fig.axes[0].patches]
    red = tuple(np.round(matplotlib.colors.to_rgb("tab:red"), 3))
    assert colors.index(red) == 1 and colors.count(red) == 1


def test_attention_row_drops_extra_eos_weights():
    fig = plot_attention_row([0.2, 0.8, 0.0], ["i", "am"], "是")
    assert len(fig.axes[0].patches) == 2


def test_attention_row_rejects_too_few_weights():
    with pytest.raises(HelpersError):
        plot_attention_row([1.0], ["i", "am"])


def test_similarity_writes_every_value():
    fig = plot_similarity({"a": np.ones((2, 2)), "b": np.eye(2)}, ["我", "是"])
    assert _texts(fig)[:4] == ["1.00"] * 4 and _texts(fig)[4:] == ["1.00", "0.00", "0.00", "1.00"]


def test_length_histograms_mark_the_longest_training_sentence():
    stats = {"src_length_hist": {"train": {3: 2, 5: 2}, "long": {21: 1}}}
    fig = plot_length_histograms(stats, splits=("train", "long"))
    assert list(fig.axes[0].get_lines()[0].get_ydata()) == [0.5, 0.5]
    assert any("训练集最长 5 词" in t for t in _texts(fig))


def test_phenomena_bars_show_counts_and_crossing_counts():
    stats = {"phenomena": {"train": {"negation": 5, "time_front": 9}},
             "crossing_by_phenomenon": {"train": {"time_front": 8}},
             "sizes": {"train": 10}, "crossing_share": {"train": 0.8}}
    fig = plot_phenomena(stats)
    widths = [p.get_width() for p in fig.axes[0].patches]
    assert widths == [5, 9, 0, 8]


def test_markdown_table_rounds_floats_and_marks_missing_values():
    text = markdown_table([["a", 0.12345, None, float("nan"), "x|y"]], ["m", "v", "n", "nan", "s"], digits=2)
    assert text.splitlines() == ["| m | v | n | nan | s |", "|---|---|---|---|---|", "| a | 0.12 | — | — | x\\|y |"]
