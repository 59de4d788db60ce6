"""The helpers that notebooks 07a and 07b call instead of long cells: selection by rule, rows with two
sure links, how much a left-out word was looked at, a decoded split, the removal table, gradient rows.
Expected values are worked out by hand on small made-up pairs, or by the definition they implement."""

from types import SimpleNamespace

import numpy as np
import pytest

from helpers.analysis.differences import looked_weight
from helpers.analysis.rows import many_to_one
from helpers.analysis.selection import exact_pairs, first_exact


def _pair(src, tgt, sure, phenomena=()):
    return SimpleNamespace(src=src.split(), tgt=tgt.split(), sure=set(sure), possible=set(), phenomena=phenomena)


NIGHT = _pair("i slept last night .", "我 昨晚 睡觉 了 。", {(0, 0), (2, 1), (3, 1), (1, 2), (4, 4)})
WEEKEND = _pair("we swam on weekends .", "我们 周末 游泳 。", {(0, 0), (2, 1), (3, 1), (1, 2), (4, 3)})
NIGHT2 = _pair("he ran last night .", "他 昨晚 跑步 了 。", {(0, 0), (2, 1), (3, 1), (1, 2), (4, 4)})
PLAIN = _pair("i am a student .", "我 是 一 名 学生 。", {(0, 0), (1, 1), (2, 2), (3, 4), (4, 5)})


def test_many_to_one_counts_rows_with_two_sure_links():
    assert many_to_one([NIGHT, WEEKEND, NIGHT2, PLAIN]) == [(("last", "night"), "昨晚", 2),
                                                            (("on", "weekends"), "周末", 1)]
    assert many_to_one([PLAIN]) == []
    assert many_to_one([NIGHT, WEEKEND, NIGHT2], top=1) == [(("last", "night"), "昨晚", 2)]


def test_first_exact_takes_the_first_short_candidate_the_model_gets_right():
    asked = []

    def translate(p):  # gets NIGHT wrong, the others right; records whom it was asked about
        asked.append(p)
        return ["错"] if p is NIGHT else list(p.tgt)

    rule = lambda p: "昨晚" in p.tgt  # noqa: E731
    assert first_exact([PLAIN, NIGHT, WEEKEND, NIGHT2], rule, translate) is NIGHT2
    assert asked == [NIGHT, NIGHT2]  # only candidates that pass the rule are translated
    assert first_exact([NIGHT2], rule, translate, max_len=4) is None  # five words is too long
    assert exact_pairs([PLAIN, NIGHT, NIGHT2], translate) == [PLAIN, NIGHT2]


def test_looked_weight_is_the_largest_weight_on_a_left_out_word():
    # the output leaves out 昨晚, so last (2) and night (3) are the left-out words; the <eos> row counts
    hyp = ["我", "睡觉", "了", "。"]
    att = np.zeros((6, 5))
    att[:, 0] = 1.0
    att[1, 0], att[1, 3] = 0.6, 0.4   # row 2 (睡觉): 0.4 on night
    att[4, 0], att[4, 2] = 0.3, 0.7   # row 5 (<eos>): 0.7 on last
    att[5, 2] = 0.99                  # a row past <eos> never counts
    assert looked_weight(att, hyp, NIGHT) == pytest.approx(0.7)
    assert looked_weight(att, list(NIGHT.tgt), NIGHT) == 0.0


@pytest.fixture(scope="module")
def model():
    import helpers

    return helpers.load_pretrained("luong-general")


@pytest.fixture(scope="module")
def test_pairs():
    from helpers.corpus import load_corpus

    return load_corpus("test")[:40]


def test_decode_split_agrees_with_translate_and_aer(model, test_pairs):
    import helpers
    from helpers.analysis.decoded import decode_split
    from helpers.metrics import aer, corpus_aer

    d = decode_split(model, test_pairs)
    for k in (0, 7, 21):
        p = test_pairs[k]
        t = helpers.translate(model, " ".join(p.src))
        assert d.outputs[k] == t.tgt_tokens and d.same[k] == (t.tgt_tokens == list(p.tgt))
        if d.same[k]:
            assert d.scores[k] == pytest.approx(aer(t.attention, p.sure, p.possible, n_src=len(p.src), n_tgt=len(p.tgt)))
    assert set(d.scores) == {k for k, ok in enumerate(d.same) if ok}
    buckets = d.aer_by_length(((1, 100),))  # one bucket holding every exact pair = the corpus AER
    links = [{(int(np.argmax(d.attention[k][j, : len(test_pairs[k].src)])), j) for j in range(len(test_pairs[k].tgt))}
             for k in d.scores]
    assert buckets["1–100"][0] == len(d.scores)
    assert buckets["1–100"][1] == pytest.approx(corpus_aer(links, [test_pairs[k].sure for k in d.scores],
                                                           [test_pairs[k].possible for k in d.scores]))


def test_removal_rows_follow_the_headers(model, test_pairs):
    from helpers.analysis.removal import REMOVAL_HEADERS, removal_experiment, removal_rows

    removal = removal_experiment({"luong-general": model}, {"test": test_pairs[:10]})
    (row,) = removal_rows(removal)
    r = removal["test", "luong-general"]
    assert len(row) == len(REMOVAL_HEADERS)
    assert row == ["test", "luong-general", r.steps, r.peak_weight, r.changed["peak"], r.changed["second"],
                   r.changed["equal_mass"], r.changed["random"], r.prob_drop["peak"]]
    again = removal_experiment({"luong-general": model}, {"test": test_pairs[:10]})
    assert again["test", "luong-general"].changed == r.changed  # the random control is seeded afresh


def test_gradient_rows_are_normalised_gradient_x_input(model):
    import helpers
    from helpers.analysis.agreement import gradient_rows, peak_disagreements
    from helpers.analysis.attribution import gradient_x_input, source_gradients

    t = helpers.translate(model, "i am a student .")
    rows = gradient_rows(model, t.src_tokens, t.tgt_tokens)
    raw = gradient_x_input(*source_gradients(model, t.src_tokens, t.tgt_tokens)).numpy()[: len(t.tgt_tokens)]
    assert rows.shape == (len(t.tgt_tokens), len(t.src_tokens))
    assert np.allclose(rows.sum(axis=1), 1) and np.allclose(rows, raw / raw.sum(axis=1, keepdims=True))
    # disagreements by hand: a one-hot "gradient" that always points at the first word
    fake = np.zeros_like(rows)
    fake[:, 0] = 1
    expected = [(k + 1, tok, t.src_tokens[int(t.attention[k, :5].argmax())], t.src_tokens[0])
                for k, tok in enumerate(t.tgt_tokens) if int(t.attention[k, :5].argmax()) != 0]
    assert peak_disagreements(t.attention, fake, t.src_tokens, t.tgt_tokens) == expected


def test_aer_histogram_and_gradient_panels_draw():
    import matplotlib.pyplot as plt

    from helpers.viz.gallery import plot_aer_histogram
    from helpers.viz.gradients import plot_attention_vs_gradient

    ax = plot_aer_histogram([0.0, 0.1, 0.12, 0.5], "AER")
    assert sum(p.get_height() for p in ax.patches) == 4 and ax.get_title() == "AER"
    att = np.eye(3)
    fig = plot_attention_vs_gradient(att, att, ["a", "b", "."], ["甲", "乙", "。"], name="m")
    assert [a.get_title() for a in fig.axes if a.get_title()][:2] == ["m：注意力权重 α", "m：梯度 × 输入（每行归一化）"]
    plt.close("all")


def test_removal_keeps_every_step_and_the_weight_each_edit_moved(model, test_pairs):
    from helpers.analysis.removal import (
        MASS_BINS,
        mass_bin_rows,
        removal_experiment,
        removed_rows,
        soft_step_rows,
    )

    removal = removal_experiment({"luong-general": model}, {"test": test_pairs[:10]})
    r = removal["test", "luong-general"]
    assert len(r.step_peak) == r.steps == len(r.step_changed["peak"]) == len(r.step_removed["equal_mass"])
    for name in ("peak", "second", "equal_mass", "random"):
        assert sum(r.step_changed[name]) / r.steps == pytest.approx(r.changed[name])
    assert sum(r.step_peak) / r.steps == pytest.approx(r.peak_weight)
    # by hand: remove_peak moves exactly the peak's weight p; the equal-mass control takes min(p, 1 - p) from the
    # other keys and renormalises: the row moves by 1 - p when p > 0.5, by p^2 / (1 - p) when p <= 0.5
    assert r.step_removed["peak"] == pytest.approx(r.step_peak, abs=1e-5)
    assert r.step_removed["equal_mass"] == pytest.approx([1 - p if p > 0.5 else p * p / (1 - p) for p in r.step_peak],
                                                         abs=1e-5)
    (row,) = removed_rows(removal)
    assert row[:2] == ["luong-general", r.steps]
    assert row[2] == pytest.approx(sum(p > 0.5 for p in r.step_peak) / r.steps)
    assert row[3] == pytest.approx(r.peak_weight, abs=1e-5)
    (soft,) = soft_step_rows(removal)
    keep = [i for i, p in enumerate(r.step_peak) if p <= 0.5]
    assert soft[1] == len(keep)
    if keep:
        assert soft[3] == pytest.approx(sum(r.step_changed["peak"][i] for i in keep) / len(keep))
    bins = mass_bin_rows(removal)
    assert len(bins) == len(MASS_BINS)
    for col in (1, 3, 5):  # every step falls in exactly one bin, for each edit
        assert sum(b[col] for b in bins) == r.steps
