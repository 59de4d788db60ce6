"""helpers.widgets.explorer, headless: the AttentionExplorer of notebooks 07 and 03 (Fig. 9-22 heatmaps)."""

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

import helpers  # noqa: E402
from helpers.corpus import load_corpus  # noqa: E402
from helpers.runtime.errors import HelpersError  # noqa: E402
from helpers.train import make_model  # noqa: E402
from helpers.widgets import AttentionExplorer  # noqa: E402
from helpers.widgets.explorer import NO_COMPARE, find_gold, sentence_text  # noqa: E402

ERROR = "color:#b00"


def _png(widget) -> bytes:
    return bytes(widget.image.value)


def _png_size(png: bytes) -> tuple[int, int]:
    # PNG header: width and height are big-endian 4-byte integers at offsets 16 and 20.
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


@pytest.fixture(scope="module")
def model():
    return helpers.load_pretrained("luong-general")


@pytest.fixture(scope="module")
def matching_pair(model):
    """A short test-split pair that luong-general translates exactly like its reference."""
    for pair in load_corpus("test")[:200]:
        if 6 <= len(pair.src) <= 10 and helpers.translate(model, sentence_text(pair.src)).tgt_tokens == list(pair.tgt):
            return pair
    pytest.fail("luong-general translates none of the first 200 test sentences exactly")


@pytest.fixture(scope="module")
def explorer():
    return AttentionExplorer(model="luong-general")  # the model the tests below compare with


@pytest.fixture
def fresh():
    return AttentionExplorer(model="luong-general")


def test_default_widget_draws_a_png_without_error(explorer):
    assert _png(explorer)[:8] == b"\x89PNG\r\n\x1a\n"
    assert ERROR not in explorer.message.value
    assert explorer.translation.src_tokens == ["i", "am", "a", "student", "."]


def test_step_slider_counts_decoding_steps_from_one(explorer, model):
    expected = helpers.translate(model, explorer.sentence.value).attention.shape[0]
    assert (explorer.step.min, explorer.step.max) == (1, expected)


def test_moving_the_step_slider_changes_the_png(fresh):
    before = _png(fresh)
    fresh.step.value = 2
    assert _png(fresh) != before


def test_top_word_at_every_step_is_the_argmax_of_the_translation(fresh, model):
    sentence = "tom ate an apple yesterday ."
    fresh.sentence.value = sentence
    t = helpers.translate(model, sentence)
    words = t.src_tokens + ["<eos>"] * (t.attention.shape[1] - len(t.src_tokens))
    for j in range(t.attention.shape[0]):
        fresh.step.value = j + 1  # step t = row t - 1
        row = [float(x) for x in t.attention[j]]
        best = max(range(len(row)), key=lambda i: (row[i], -i))  # largest weight, leftmost on a tie
        word, weight = fresh.top_words()[0]
        assert (word, round(weight, 5)) == (words[best], round(row[best], 5))


def test_readout_lists_the_top_words_with_their_weights(fresh):
    fresh.step.value = 1
    word, weight = fresh.top_words(k=1)[0]
    assert f"{weight:.3f}" in fresh.readout.value and word in fresh.readout.value


def test_aer_matches_a_hand_computation_on_the_same_matrix_and_gold(fresh, model, matching_pair):
    sentence = sentence_text(matching_pair.src)
    fresh.sentence.value = sentence
    att = helpers.translate(model, sentence).attention
    S, T = len(matching_pair.src), len(matching_pair.tgt)
    links = set()
    for j in range(T):  # arg-max rule by hand
        row = [float(x) for x in att[j, :S]]
        links.add((row.index(max(row)), j))
    sure, possible = set(matching_pair.sure), set(matching_pair.possible) | set(matching_pair.sure)
    hand = 1 - (len(links & sure) + len(links & possible)) / (len(links) + len(sure))
    assert fresh.aer == pytest.approx(hand, abs=1e-9)
    assert f"AER = {hand:.2f}" in fresh.readout.value


def test_gold_toggle_changes_the_png(fresh, matching_pair):
    fresh.sentence.value = sentence_text(matching_pair.src)
    with_gold = _png(fresh)
    fresh.show_gold.value = False
    assert _png(fresh) != with_gold
    fresh.show_gold.value = True
    assert _png(fresh) == with_gold


def test_sentence_outside_the_corpus_says_no_gold_alignment(fresh):
    sentence = "tom likes tea , but i like coffee ."
    assert find_gold(sentence.split()) is None
    fresh.sentence.value = sentence
    assert "无标准对齐 (no gold alignment)" in fresh.message.value
    assert fresh.aer is None


def test_compare_mode_draws_two_panels_side_by_side(fresh):
    single = _png(fresh)
    fresh.compare.value = "bahdanau"
    assert fresh.n_panels == 2
    assert _png(fresh) != single
    assert "bahdanau" in fresh.readout.value and "luong-general" in fresh.readout.value
    fresh.compare.value = NO_COMPARE
    assert fresh.n_panels == 1


def test_switching_the_model_retranslates(fresh):
    before = _png(fresh)
    fresh.model.value = "luong-dot"
    assert fresh.translation.model_name == "luong-dot"
    assert _png(fresh) != before


def test_examples_dropdown_fills_the_sentence_box(fresh):
    label, sentence = fresh.examples.options[3]
    fresh.examples.value = sentence
    assert fresh.sentence.value == sentence
    assert sentence_text(fresh.translation.src_tokens) == sentence


def test_examples_dropdown_lists_each_sentence_once():
    from helpers.widgets.explorer import PHENOMENA_ZH, example_sentences

    options = example_sentences()
    sentences = [sentence for _, sentence in options]
    assert len(sentences) == len(set(sentences)), [s for s in sentences if sentences.count(s) > 1]
    # every phenomenon still gets its example: the DESIGN examples + one per phenomenon + two long ones
    assert sum(label.split(":")[0] in PHENOMENA_ZH.values() for label, _ in options) == len(PHENOMENA_ZH)


@pytest.mark.parametrize("bad, expected", [
    ("", "empty input"),
    ("   ", "empty input"),
    ("我是一名学生。", "请输入英文句子"),
    ("!!! ???", "empty input"),
    ("i am a student . " * 100, "句子太长"),
])
def test_bad_input_gives_a_message_and_keeps_the_picture(fresh, bad, expected):
    before = _png(fresh)
    fresh.sentence.value = bad
    assert ERROR in fresh.message.value and expected in fresh.message.value
    assert _png(fresh) == before


@pytest.mark.parametrize("text, expected", [
    ("i am a studnet .", "student"),  # an unknown word is read as <unk>; the note suggests the close word
    ("i love 🍎 .", "unknown words"),
    ("<script>alert('x')</script>", "&lt;"),
])
def test_an_unknown_word_is_translated_with_a_note_not_refused(fresh, text, expected):
    fresh.sentence.value = text
    assert ERROR not in fresh.message.value and expected in fresh.message.value
    assert fresh.translation.unknown


def test_an_unknown_source_word_is_marked_on_the_source_axis(fresh):
    fresh.sentence.value = "my friend Xiaoming is a student"
    assert "xiaoming (unk)" in fresh._views[0].cols


@pytest.mark.parametrize("text", ["i love 🍎 .", "i am a \x07student\x1b .", "tom\x00 is a student ."])
def test_characters_no_font_draws_are_shown_as_question_marks_without_glyph_warnings(fresh, text):
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fresh.sentence.value = text
        _png(fresh)
    assert [str(w.message) for w in caught if "Glyph" in str(w.message)] == []
    labels = fresh._views[0].cols
    assert any("?" in label for label in labels), labels  # the unknown word is still on the axis, drawn as ?


def test_drawable_keeps_what_the_fonts_draw():
    from helpers.viz import drawable

    assert drawable("学生 student (unk) α ← ✓") == "学生 student (unk) α ← ✓"
    assert drawable("🍎\x07a") == "??a"


def test_html_in_the_input_is_escaped_in_the_message(fresh):
    fresh.sentence.value = "<b>bold</b> <img src=x onerror=alert(1)>"
    assert "<img" not in fresh.message.value and "<b>" not in fresh.message.value


def test_widget_keeps_working_after_bad_input(fresh):
    fresh.sentence.value = "xyzzy plugh"
    broken = _png(fresh)
    fresh.step.value = 2  # the old picture still answers the slider
    assert _png(fresh) != broken
    fresh.sentence.value = "do you like tea ?"
    assert ERROR not in fresh.message.value
    assert fresh.translation.src_tokens == ["do", "you", "like", "tea", "?"]


def test_display_bundle_carries_a_static_png(explorer):
    assert "image/png" in explorer._repr_mimebundle_()


def test_add_model_offers_a_fresh_untrained_seq2seq(fresh):
    untrained = make_model("luong-dot", seed=3)
    fresh.add_model("untrained", untrained)
    assert "untrained" in fresh.model.options and "untrained" in fresh.compare.options
    before = _png(fresh)
    fresh.model.value = "untrained"
    assert fresh.translation.text == helpers.translate(untrained, fresh.sentence.value).text
    assert _png(fresh) != before


def test_add_model_refuses_a_model_without_vocabularies(fresh):
    from helpers.seq2seq import Seq2Seq

    with pytest.raises(HelpersError, match="词表"):
        fresh.add_model("bare", Seq2Seq("luong-dot", 20, 20))


def test_add_model_refuses_a_model_without_attention(fresh):
    with pytest.raises(HelpersError, match="no attention"):
        fresh.add_model("none", make_model("none"))


def test_an_unexpected_failure_inside_an_observer_becomes_a_message(fresh):
    from helpers.corpus import build_vocabs

    class Broken(torch.nn.Module):  # has vocabularies and parameters, but no encoder / decoder
        src_vocab, tgt_vocab = build_vocabs()

        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.zeros(1))

    fresh.add_model("broken", Broken())
    fresh.model.value = "broken"  # translate fails deep inside: no exception reaches the notebook
    assert ERROR in fresh.message.value and "AttributeError" in fresh.message.value
    fresh.model.value = "luong-general"
    assert ERROR not in fresh.message.value


def test_compact_version_is_smaller_and_has_no_compare(explorer):
    compact = AttentionExplorer(compact=True)
    assert compact.compare not in compact.children[1].children
    assert _png_size(_png(compact))[0] < _png_size(_png(explorer))[0]


def test_long_sentence_draws_a_picture(fresh):
    pair = load_corpus("long")[0]
    fresh.sentence.value = sentence_text(pair.src)
    assert ERROR not in fresh.message.value
    width, height = _png_size(_png(fresh))
    assert width <= 1400 and height <= 900
    assert np.isfinite(fresh.top_words()[0][1])


def test_readout_and_title_count_the_first_output_token_as_t_equals_one(fresh):
    fresh.step.value = 1
    first = fresh.translation.tgt_tokens[0]
    assert f"t = 1，输出 “{first}”" in fresh.readout.value and "t = 0" not in fresh.readout.value
    assert f"t = 1：“{first}”" in fresh._dyn[0]["title"].get_text()
    assert fresh._dyn[-1]["head"].get_text().startswith("t = 1 ")


# --- the default model: the softest attention among the models that align well (issue 22, item 6) ---
def _record(**rows):
    return {"models": {name: {"test": {"aer": aer, "max_alpha": peak}} for name, (aer, peak) in rows.items()}}


def test_the_default_model_is_the_softest_among_those_that_align_well():
    from helpers.widgets.explorer import default_model

    record = _record(**{"luong-general": (0.10, 0.99), "luong-dot": (0.09, 0.92), "luong-concat": (0.11, 0.83),
                        "bahdanau": (0.18, 0.60)})  # bahdanau is softest but aligns worse than 0.15
    assert default_model(record) == "luong-concat"
    assert default_model(record, max_aer=0.2) == "bahdanau"


def test_without_a_model_that_aligns_well_the_best_aligned_one_is_the_default():
    from helpers.widgets.explorer import default_model

    record = _record(**{"luong-general": (0.30, 0.99), "luong-dot": (0.25, 0.92), "bahdanau": (0.40, 0.60)})
    assert default_model(record) == "luong-dot"


def test_without_metrics_the_default_is_the_first_attention_model():
    from helpers.widgets.explorer import ATTENTION_MODELS, default_model

    assert default_model({"models": {}}) == ATTENTION_MODELS[0]


def test_the_explorer_opens_on_the_rule_s_choice_of_the_shipped_models():
    from helpers.checkpoint import load_metrics
    from helpers.widgets.explorer import default_model

    assert AttentionExplorer().model.value == default_model(load_metrics())


def test_a_copied_word_is_marked_with_the_source_word_it_came_from():
    from helpers.decode import Translation
    from helpers.translation.copying import CopiedWord
    from helpers.widgets.explorer import _make_view

    t = Translation(src_tokens=["my", "name", "is", "xiaoming", "."], tgt_tokens=["我", "叫", "Xiaoming", "。"],
                    text="我叫Xiaoming。", attention=np.full((5, 6), 1 / 6), unknown=[3],
                    copied=[CopiedWord(2, 3, "Xiaoming")])
    view = _make_view("luong-general", t)
    assert view.rows == ["我", "叫", "Xiaoming (copy ← xiaoming)", "。", "<eos>"]
    assert view.cols == ["my", "name", "is", "xiaoming (unk)", ".", "<eos>"]


def test_a_sentence_typed_without_its_full_stop_is_shown_not_called_stale(fresh):
    fresh.sentence.value = "Tom ate an apple yesterday"
    assert fresh.translation.src_tokens == ["tom", "ate", "an", "apple", "yesterday", "."]
    assert "still showing" not in fresh.message.value and ERROR not in fresh.message.value


# --- the top-5 next tokens and the beam view (issue 31, item 3) ---
def test_candidates_panel_lists_the_model_s_top_five_with_the_output_token_chosen(fresh, model):
    import html

    from helpers.decode import translation_topk

    sentence = "tom ate an apple yesterday ."
    fresh.sentence.value = sentence
    t = helpers.translate(model, sentence)
    top = translation_topk(model, t)
    for j in range(t.attention.shape[0]):
        fresh.step.value = j + 1
        rows = fresh.next_tokens()
        assert [(w, round(p, 9)) for w, p, _ in rows] == [(w, round(float(p), 9)) for w, p in zip(top.tokens[j], top.probs[j])]
        chosen = [w for w, _, c in rows if c]
        assert chosen == [(t.tgt_tokens + ["<eos>"])[j]]  # greedy: the output token is the most probable one
        assert rows[0][2]
        assert f"{html.escape(rows[0][0])} ← 选中 (chosen)" in fresh.readout.value


def test_the_candidates_and_beam_table_are_in_the_picture(fresh):
    fresh.step.value = 2
    cand, table = fresh._cand, fresh._table
    word, p, chosen = fresh.next_tokens()[0]
    assert cand["words"][0].get_text() == word and cand["bars"][0].get_width() == pytest.approx(p)
    assert cand["bars"][0].get_facecolor()[:3] == pytest.approx((1.0, 0.498, 0.0549), abs=1e-3)  # tab:orange
    shown, rows = fresh.beam_table()
    assert table["head"].get_text().startswith(f"束搜索 (beam search)，束宽 k = {fresh.beam.value}：第 t = {shown} 步")
    assert [a.get_text() for a in table["rows"][0]] == list(rows[0])


def test_beam_table_shows_the_hypotheses_kept_at_the_current_step_with_their_log_probabilities(fresh, model):
    from helpers.decode import beam_trace, translation_ids

    fresh.sentence.value = "the cat that i saw is black ."
    fresh.beam.value = 3
    src, _ = translation_ids(model, fresh.translation)
    trace = beam_trace(model, src, beam_size=3)
    fresh.step.value = 2
    shown, rows = fresh.beam_table()
    assert shown == 2
    kept = trace.steps[1].kept
    assert [lp for *_, lp, _ in rows[: len(kept)]] == [f"{lp:.3f}" for _, lp in kept]
    assert [hyp for _, hyp, *_ in rows[: len(kept)]] == [f"{r}. " + " ".join(model.tgt_vocab.itos[i] for i in ids)
                                                          for r, (ids, _) in enumerate(kept, 1)]


def test_the_final_hypothesis_is_starred_where_it_ends_and_its_prefix_before(fresh, model):
    fresh.sentence.value = "i am a student ."
    trace = fresh.beam_trace
    best_step, best_index = trace.best
    fresh.step.value = best_step + 1
    shown, rows = fresh.beam_table()
    ended = [r for r in rows if r[3]]
    assert ended[best_index][0] == "★" and "最终选中" in ended[best_index][3]
    assert sum(r[0] == "★" for r in rows) == 1
    fresh.step.value = 1
    _, rows = fresh.beam_table()
    first = model.tgt_vocab.itos[trace.chosen[0][0]]
    assert [r[1] for r in rows if r[0] == "★"] == [f"1. {first}"]  # the winner's first word, kept at step 1


def test_beam_width_one_gives_the_greedy_translation(fresh):
    fresh.sentence.value = "tom ate an apple yesterday ."
    fresh.beam.value = 1
    assert fresh.beam_trace.beam_size == 1
    assert fresh.beam_trace.chosen[0] == fresh.beam_trace.result.tokens[0]
    ids = fresh.beam_trace.chosen[0]
    assert [fresh._views[0].tgt_vocab.itos[i] for i in ids] == fresh.translation.tgt_tokens
    fresh.step.value = 1
    first = fresh.translation.tgt_tokens[0]
    assert fresh.beam_table() == (1, [("★", f"1. {first}", fresh.beam_table()[1][0][2], "")])  # one hypothesis


def test_changing_the_beam_width_redraws_the_table(fresh):
    fresh.sentence.value = "the cat that i saw is black ."
    fresh.step.value = 2
    before = _png(fresh)
    fresh.beam.value = 5
    assert len(fresh.beam_table()[1]) == 5 and _png(fresh) != before
    assert ERROR not in fresh.message.value


def test_compare_mode_lists_the_candidates_of_both_models(fresh):
    fresh.compare.value = "bahdanau"
    assert fresh.next_tokens(panel=1) and fresh.readout.value.count("top-5 next tokens") == 2
    fresh.compare.value = NO_COMPARE


def test_no_text_of_the_picture_is_cut_at_its_edges(fresh):
    """Issue 33: the legend (and every other label) lies inside the picture, default and long sentences."""
    fig = fresh._fig

    def outside():
        renderer = fig.canvas.get_renderer()
        W, H = fig.bbox.width, fig.bbox.height
        texts = fig.findobj(lambda a: hasattr(a, "get_window_extent") and hasattr(a, "get_text") and a.get_text())
        return [t.get_text() for t in texts if (lambda b: b.x0 < 0 or b.y0 < 0 or b.x1 > W or b.y1 > H)(
            t.get_window_extent(renderer))]

    for sentence in ("i am a student .", sentence_text(load_corpus("long")[0].src)):
        fresh.sentence.value = sentence
        for t in (1, fresh.step.max):
            fresh.step.value = t
            assert outside() == [], sentence
    assert any("红色实线框" in t.get_text() for t in fig.texts)  # the legend is one of the texts checked


# --- the too-long message (issue 32) ---
def test_one_very_long_word_is_called_too_many_characters_not_one_word_too_many(fresh):
    fresh.sentence.value = "x" * 3000
    message = fresh.message.value
    assert ERROR in message and "3000 个字符" in message and "最多 2000 个字符" in message
    assert "1 个词" not in message


def test_a_sentence_over_sixty_words_says_how_many_words(fresh):
    fresh.sentence.value = " ".join(["student"] * 61)
    assert ERROR in fresh.message.value and "61 个词，这里最多 60 个词" in fresh.message.value


def test_a_long_word_under_the_limit_is_shown_not_called_stale(fresh):
    fresh.sentence.value = "x" * 300  # shortened to 20 characters + … on the axis, still this sentence
    assert "still showing" not in fresh.message.value and ERROR not in fresh.message.value
    fresh.sentence.value = "x" * 3000
    fresh.step.value = 2  # the picture keeps the 300-character word: now it is stale, and says so
    assert "still showing" in fresh.message.value


def test_a_megabyte_of_input_is_refused_quickly_with_a_message(fresh):
    import time

    start = time.perf_counter()
    fresh.sentence.value = "tom likes tea . " * 65_536
    assert time.perf_counter() - start < 2
    assert ERROR in fresh.message.value and "input too long" in fresh.message.value
