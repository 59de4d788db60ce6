"""Long-sentence decoding rules (helpers.translation.penalties) against hand computations, and their use in the searches."""

import math

import numpy as np
import pytest
import torch
from hostile_support import assert_bilingual
from test_decode import EOS, A, B, ScriptedModel, _src

from helpers.decode import (
    beam_search,
    check_decoding,
    decode_sentences,
    greedy_decode,
    shipped_decoding,
    translate,
)
from helpers.runtime.errors import HelpersError
from helpers.train import make_model
from helpers.translation.penalties import COVERAGE_FLOOR, coverage_penalty, eos_allowed, length_norm

# Rows = target steps, columns = 3 source words. Column totals 1.4, 0.6, 1.0 -> min(., 1) = 1, 0.6, 1
# -> Σ log = ln 0.6 = -0.510826; times β = 0.5 -> -0.255413.
ATTENTION = np.array([[0.7, 0.2, 0.1],
                      [0.6, 0.3, 0.1],
                      [0.1, 0.1, 0.8]])


def test_coverage_penalty_of_a_tiny_attention_matrix():
    assert coverage_penalty(ATTENTION, 0.5) == pytest.approx(-0.255413, abs=1e-6)


def test_coverage_penalty_takes_a_torch_tensor_too():
    assert coverage_penalty(torch.tensor(ATTENTION), 1.0) == pytest.approx(math.log(0.6), abs=1e-6)


def test_a_word_attended_more_than_once_earns_no_bonus():
    assert coverage_penalty(np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), 1.0) == 0.0


def test_a_word_never_attended_costs_the_log_of_the_floor():
    a = np.array([[1.0, 0.0], [1.0, 0.0]])  # the second word gets nothing
    assert coverage_penalty(a, 0.2) == pytest.approx(0.2 * math.log(COVERAGE_FLOOR))


def test_zero_beta_means_no_coverage_penalty():
    assert coverage_penalty(np.zeros((2, 2)), 0.0) == 0.0


def test_length_normalisation_forms():
    assert length_norm(7, 0.6, "power") == pytest.approx(7 ** 0.6)
    assert length_norm(7, 0.6, "gnmt") == pytest.approx(2 ** 0.6)  # ((5 + 7) / 6)^0.6 = 2^0.6 = 1.515717
    assert length_norm(7, 0.0, "gnmt") == 1.0


def test_eos_guard_counts_the_last_k_real_source_tokens():
    cumulative = torch.tensor([[0.1, 0.2, 0.3, 0.4],
                               [0.1, 0.2, 0.3, 0.9]])  # row 1 has 3 real tokens: its 0.9 is padding
    allowed = eos_allowed(cumulative, torch.tensor([4, 3]), (2, 0.6))
    assert allowed.tolist() == [True, False]  # 0.3 + 0.4 = 0.7 >= 0.6; 0.2 + 0.3 = 0.5 < 0.6


# The scripted model attends to source position (number of tokens so far) mod S, and prefers to stop
# after "A" (p(<eos> | A) = 0.6). With a source of 3 tokens and eos_guard = (2, 1.0) (weight 1 on
# positions 1-2 before <eos>): after "A" only step 1 (position 0) was seen -> <eos> barred, B is next best;
# after "A B" steps 1-2 looked at positions 0 and 1 -> weight 1.0 on the last two -> <eos> allowed.
STOPS_EARLY = {0: {(): {A: 0.9}, (A,): {EOS: 0.6, B: 0.3}, (A, B): {EOS: 0.9}}}


def test_greedy_without_a_guard_stops_where_the_model_likes():
    assert greedy_decode(ScriptedModel(STOPS_EARLY), *_src(3)).tokens == [[A]]


def test_greedy_with_the_guard_goes_on_until_the_end_was_attended():
    r = greedy_decode(ScriptedModel(STOPS_EARLY), *_src(3), eos_guard=(2, 1.0))
    assert r.tokens == [[A, B]] and r.finished == [True]
    # the score stays the model's log-probability of what was produced; the scripted rows are renormalised
    # (log-softmax): p(A) = 0.9 / 0.9 = 1, p(B | A) = 0.3 / 0.9 = 1/3, p(<eos> | A B) = 1 (unlisted: 1e-6)
    assert r.scores[0] == pytest.approx(math.log(1 / 3), abs=1e-4)


def test_beam_search_obeys_the_guard_like_greedy():
    r = beam_search(ScriptedModel(STOPS_EARLY), *_src(3), beam_size=1, eos_guard=(2, 1.0))
    assert r.tokens == [[A, B]]


def test_the_guard_is_per_sentence_in_a_batch():
    table = {**STOPS_EARLY, 1: {(): {A: 0.9}, (A,): {EOS: 0.6, B: 0.3}, (A, B): {EOS: 0.9}}}
    r = greedy_decode(ScriptedModel(table), *_src(3, 2), eos_guard=(2, 1.0))
    assert r.tokens == [[A, B], [A]]  # a 2-token source: step 1 already covered positions 0-1


# Coverage penalty in beam search (source of 2 tokens, no length normalisation), hand computation:
#   ""  : log 0.4 = -0.916; its one row looks at position 0 -> position 1 gets nothing: cp = ln 1e-9 = -20.72
#   "A" : log 0.6 + log 0.5 = -1.204; rows on positions 0, 1 -> cp = 0
SHORT_OR_LONG = {0: {(): {A: 0.6, EOS: 0.4}, (A,): {EOS: 0.5, B: 0.5}, (A, B): {EOS: 0.9}}}


def test_without_coverage_penalty_the_output_that_skips_a_word_wins():
    assert beam_search(ScriptedModel(SHORT_OR_LONG), *_src(2), beam_size=2, length_penalty=0.0).tokens == [[]]


def test_the_coverage_penalty_prefers_the_output_that_covers_every_word():
    r = beam_search(ScriptedModel(SHORT_OR_LONG), *_src(2), beam_size=2, length_penalty=0.0, coverage_penalty=1.0)
    assert r.tokens == [[A]]
    assert r.scores[0] == pytest.approx(math.log(0.6) + math.log(0.5), abs=1e-4)  # the plain log-probability


@pytest.fixture(scope="module")
def tiny():
    return make_model("bahdanau", seed=1, emb_size=8, hidden_size=16)


def test_beam_one_with_the_guard_equals_batched_greedy_with_the_guard(tiny):
    sources = [[10, 11, 12], [13, 14, 15, 16, 17, 18], [19, 20]]
    g = decode_sentences(tiny, sources, eos_guard=(2, 0.5))
    b = decode_sentences(tiny, sources, beam_size=1, coverage_penalty=1e-9, eos_guard=(2, 0.5))  # beam path
    assert g.tokens == b.tokens


def test_translate_uses_the_decoding_the_model_ships_with(tiny):
    tiny.meta = {**tiny.meta, "decoding": {"eos_guard": [2, 0.5]}}
    try:
        assert shipped_decoding(tiny)["eos_guard"] == [2, 0.5]
        shipped = translate(tiny, "i am a student .")
        guarded = translate(tiny, "i am a student .", eos_guard=(2, 0.5))
        plain = translate(tiny, "i am a student .", eos_guard=None)
    finally:
        tiny.meta = {k: v for k, v in tiny.meta.items() if k != "decoding"}
    assert shipped.tgt_tokens == guarded.tgt_tokens
    assert plain.tgt_tokens == translate(tiny, "i am a student .").tgt_tokens  # no record: plain greedy


def test_a_model_without_a_decoding_record_decodes_greedily(tiny):
    assert shipped_decoding(tiny) == check_decoding()


@pytest.mark.parametrize("options, words", [
    ({"eos_guard": "end"}, ["eos_guard"]),
    ({"eos_guard": (0, 0.5)}, ["eos_guard", "k"]),
    ({"eos_guard": (2, -1.0)}, ["eos_guard", "m"]),
    ({"eos_guard": (2, float("nan"))}, ["eos_guard"]),
    ({"coverage_penalty": -0.5}, ["coverage_penalty"]),
    ({"coverage_penalty": "big"}, ["coverage_penalty"]),
    ({"length_norm": "wu"}, ["length_norm", "gnmt"]),
])
def test_bad_decoding_options_get_a_bilingual_error(tiny, options, words):
    with pytest.raises(HelpersError) as exc_info:
        translate(tiny, "i am a student .", **options)
    assert_bilingual(exc_info, *words)


def test_an_unknown_decoding_option_is_named(tiny):
    with pytest.raises(HelpersError) as exc_info:
        translate(tiny, "i am a student .", coverage=0.2)
    assert_bilingual(exc_info, "coverage")
