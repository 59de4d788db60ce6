"""Greedy and beam search (on scripted stand-in models with hand-computed answers), and translate()."""

import math
import time

import numpy as np
import pytest
import torch

from helpers.decode import (
    MAX_SRC_TOKENS,
    beam_search,
    decode_sentences,
    greedy_decode,
    pad_sequences,
    translate,
)
from helpers.runtime.errors import EmptyInputError, HelpersError, UnknownWordError
from helpers.train import make_model

EOS, A, B = 2, 4, 5
V = 6


class ScriptedState:
    """Prefixes generated so far, one per batch row (what a real DecoderState stands for)."""

    def __init__(self, prefixes, src_lens):
        self.prefixes, self.src_lens = prefixes, src_lens

    @property
    def batch_size(self):
        return len(self.prefixes)

    def index_select(self, idx):
        idx = [int(i) for i in idx]
        return ScriptedState([self.prefixes[i] for i in idx], [self.src_lens[i] for i in idx])


class ScriptedModel:
    """A stand-in for Seq2Seq: next-token probabilities come from a table keyed by (row, prefix).

    ``table[row][prefix]`` is {token: probability}; tokens not listed get probability 1e-6. The attention
    at step t is one-hot on source position t mod S, so rows are easy to check by hand.
    """

    training = False

    def __init__(self, table, default=None):
        self.table, self.default = table, default or {EOS: 1.0}

    def eval(self):
        return self

    def train(self, mode=True):
        return self

    def parameters(self):
        return iter([torch.zeros(1)])

    def start(self, src, src_lens):
        return ScriptedState([(n, ()) for n in range(src.shape[0])], [int(s) for s in src_lens])

    def step(self, prev, state):
        S = max(state.src_lens)
        rows, prefixes, attn = [], [], torch.zeros(state.batch_size, S)
        for r, (row, prefix) in enumerate(state.prefixes):
            prefix = prefix + ((int(prev[r]),) if prev[r] != 1 else ())
            probs = self.table.get(row, {}).get(prefix, self.default)
            rows.append([math.log(probs.get(v, 1e-6)) for v in range(V)])
            prefixes.append((row, prefix))
            attn[r, len(prefix) % state.src_lens[r]] = 1.0
        return torch.tensor(rows), attn, ScriptedState(prefixes, state.src_lens)


def _src(*lengths):
    return pad_sequences([[7] * n for n in lengths])


def test_greedy_stops_each_sentence_at_its_own_eos():
    table = {0: {(): {A: 0.9}, (A,): {B: 0.9}, (A, B): {EOS: 0.9}}, 1: {(): {B: 0.9}, (B,): {EOS: 0.9}}}
    r = greedy_decode(ScriptedModel(table), *_src(3, 3))
    assert r.tokens == [[A, B], [B]]
    assert r.finished == [True, True]


def test_greedy_attention_has_one_row_per_step_including_eos():
    table = {0: {(): {A: 0.9}, (A,): {B: 0.9}, (A, B): {EOS: 0.9}}}
    r = greedy_decode(ScriptedModel(table), *_src(4))
    expected = np.zeros((3, 4))
    expected[[0, 1, 2], [0, 1, 2]] = 1.0  # step t looks at source position t
    assert np.array_equal(r.attention[0], expected)


def test_greedy_stops_at_twice_the_source_length_plus_five():
    never_ends = ScriptedModel({}, default={A: 0.9})
    r = greedy_decode(never_ends, *_src(2, 4))
    assert [len(t) for t in r.tokens] == [2 * 2 + 5, 2 * 4 + 5]
    assert r.finished == [False, False]


def test_greedy_score_is_the_log_probability_of_the_output():
    table = {0: {(): {A: 0.5, B: 0.4, EOS: 0.1}, (A,): {EOS: 0.8, A: 0.2}}}
    r = greedy_decode(ScriptedModel(table), *_src(3))  # 3 (then 4) unlisted tokens hold 1e-6 each
    assert r.tokens == [[A]]
    assert r.scores[0] == pytest.approx(math.log(0.5 / 1.000003) + math.log(0.8 / 1.000004), abs=1e-5)


# A tree where greedy search misses the most probable output (hand computation):
#   greedy: A (0.5) then A (0.36) then <eos> (~1)  -> p(A A) = 0.18
#   best:   B (0.4) then <eos> (0.9)               -> p(B)   = 0.36
TREE = {0: {(): {A: 0.5, B: 0.4, EOS: 0.1}, (A,): {A: 0.36, B: 0.34, EOS: 0.3},
            (A, A): {EOS: 0.99}, (A, B): {EOS: 0.5, A: 0.5}, (B,): {EOS: 0.9, A: 0.05, B: 0.05}}}


def test_greedy_follows_the_locally_best_token():
    assert greedy_decode(ScriptedModel(TREE), *_src(3)).tokens == [[A, A]]


def test_beam_search_finds_the_more_probable_output():
    r = beam_search(ScriptedModel(TREE), *_src(3), beam_size=2, length_penalty=0.0)
    assert r.tokens == [[B]]
    assert r.scores[0] == pytest.approx(math.log(0.4) + math.log(0.9), abs=1e-4)


# Length normalisation (hand computation), <eos> counted in the length:
#   ""  : log 0.4                = -0.916, per token -0.916 / 1 = -0.916
#   "A" : log 0.6 + log 0.5      = -1.204, per token -1.204 / 2 = -0.602
SHORT_OR_LONG = {0: {(): {A: 0.6, EOS: 0.4}, (A,): {EOS: 0.5, B: 0.5}, (A, B): {EOS: 0.9}}}


def test_without_length_normalisation_the_shorter_output_wins():
    r = beam_search(ScriptedModel(SHORT_OR_LONG), *_src(3), beam_size=2, length_penalty=0.0)
    assert r.tokens == [[]]


def test_length_normalisation_prefers_the_better_per_token_score():
    r = beam_search(ScriptedModel(SHORT_OR_LONG), *_src(3), beam_size=2, length_penalty=1.0)
    assert r.tokens == [[A]]


def test_beam_search_rejects_a_zero_width():
    with pytest.raises(HelpersError, match="beam_size"):
        beam_search(ScriptedModel(TREE), *_src(3), beam_size=0)


# ------------------------------------------------------------------------------ real (tiny) models
@pytest.fixture(scope="module", params=["none", "rnnencdec", "bahdanau", "luong-general"])
def tiny(request):
    return make_model(request.param, seed=1, emb_size=8, hidden_size=16)


SOURCES = [[10, 11, 12], [13, 14, 15, 16, 17, 18], [19, 20], [21, 22, 23, 24]]


def test_beam_width_one_equals_greedy(tiny):
    src, lens = pad_sequences(SOURCES)
    g = greedy_decode(tiny, src, lens)
    b = beam_search(tiny, src, lens, beam_size=1)
    assert b.tokens == g.tokens
    assert b.scores == pytest.approx(g.scores, abs=1e-4)
    if g.attention is not None:
        for x, y in zip(g.attention, b.attention):
            np.testing.assert_allclose(x, y, atol=1e-6)


def test_batched_greedy_equals_one_sentence_at_a_time(tiny):
    batched = decode_sentences(tiny, SOURCES, batch_size=3)
    single = [greedy_decode(tiny, *pad_sequences([s])).tokens[0] for s in SOURCES]
    assert batched.tokens == single


def test_attention_rows_are_distributions_over_the_real_source_tokens(tiny):
    r = decode_sentences(tiny, SOURCES)
    if tiny.variant in ("none", "rnnencdec"):
        assert r.attention is None
        return
    for src, att in zip(SOURCES, r.attention):
        assert att.shape[1] == len(src)
        np.testing.assert_allclose(att.sum(axis=1), 1.0, atol=1e-5)


# ---------------------------------------------------------------------------------------- translate
@pytest.fixture(scope="module")
def luong():
    return make_model("luong-dot", seed=2, emb_size=8, hidden_size=16)


def test_translate_returns_chinese_text_without_spaces(luong):
    t = translate(luong, "I am a student.")
    assert t.src_tokens == ["i", "am", "a", "student", "."]
    assert t.text == "".join(t.tgt_tokens) and " " not in t.text


def test_translate_attention_rows_follow_target_and_columns_follow_source(luong):
    t = translate(luong, "i am a student .")
    rows = len(t.tgt_tokens) + (1 if t.attention.shape[0] > len(t.tgt_tokens) else 0)
    assert t.attention.shape == (rows, len(t.src_tokens))
    assert isinstance(t.attention, np.ndarray)


@pytest.mark.parametrize("variant", ["none", "rnnencdec"])
def test_translate_gives_no_attention_for_the_models_without_attention(variant):
    none = make_model(variant, seed=0, emb_size=8, hidden_size=16)
    assert translate(none, "i am a student .").attention is None


def test_translate_with_beam_search(luong):
    t = translate(luong, "i am a student .", beam_size=3)
    assert t.text == "".join(t.tgt_tokens)


@pytest.mark.parametrize("bad, error", [
    ("", EmptyInputError),
    ("   \t\n", EmptyInputError),
    ("... ?!", EmptyInputError),
    ("我是一名学生。", UnknownWordError),
    ("123", UnknownWordError),  # no English word: a number above 100 is not read as words
    ("🙂 🙂", EmptyInputError),
    (None, HelpersError),
    (42, HelpersError),
    (["i", "am"], HelpersError),
])
def test_bad_input_raises_a_value_error_with_a_bilingual_message(luong, bad, error):
    with pytest.raises(error) as info:
        translate(luong, bad)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert any("\u4e00" <= ch <= "\u9fff" for ch in message) and "(" in message


def test_chinese_input_is_told_to_use_english(luong):
    with pytest.raises(UnknownWordError, match="English input"):
        translate(luong, "我是学生")


@pytest.mark.parametrize("sentence", ["我是学生", "你好"])
def test_chinese_input_gets_the_direction_and_an_example_not_suggestions_per_character(luong, sentence):
    with pytest.raises(UnknownWordError) as info:
        translate(luong, sentence)
    message = str(info.value)
    assert "translates English into Chinese" in message and "把英文翻译成中文" in message
    assert "translate(model, 'i am a student .')" in message and "我是一名学生。" in message
    assert "closest vocabulary words" not in message and "→" not in message  # no "'我' → i, a" per character
    assert sentence in message
    # the example is true: the corpus pairs that sentence with that translation
    from helpers.corpus import design_examples

    pair = design_examples()[0]
    assert " ".join(pair.src) == "i am a student ." and "".join(pair.tgt) == "我是一名学生。"


def test_a_thousand_words_are_truncated_quickly_with_a_note(luong):
    start = time.perf_counter()
    t = translate(luong, "i am a student . " * 250)
    assert time.perf_counter() - start < 5
    assert t.truncated and len(t.src_tokens) == MAX_SRC_TOKENS
    assert "truncated" in t.note and str(MAX_SRC_TOKENS) in t.note


def test_a_thousand_unknown_words_are_read_as_unk_and_truncated_quickly(luong):
    start = time.perf_counter()
    t = translate(luong, " ".join(f"zork{n}" for n in range(1000)))
    assert time.perf_counter() - start < 5
    assert t.truncated and t.unknown == list(range(MAX_SRC_TOKENS))


def test_a_model_without_vocabularies_is_refused():
    from helpers.seq2seq import Seq2Seq

    bare = Seq2Seq("luong-dot", 10, 10, emb_size=4, hidden_size=4)
    with pytest.raises(HelpersError, match="vocabular"):
        translate(bare, "i am a student .")


def test_a_megabyte_without_spaces_is_one_shortened_unknown_word(luong):
    start = time.perf_counter()
    t = translate(luong, "a" * 1_000_000)
    assert time.perf_counter() - start < 5
    assert t.src_tokens == ["a" * 20 + "…", "."] and t.unknown == [0]
