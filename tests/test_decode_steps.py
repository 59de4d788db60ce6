"""helpers.decode: the top-k next tokens of a fixed output and the beam-search trace (issue 31, item 3).

Hand-checked on a toy decoder whose next-token probabilities are a table (so every number is a product of
table entries), and checked on the shipped models against an independent teacher-forced forward pass."""

import math

import numpy as np
import pytest
import torch

import helpers
from helpers.corpus import load_corpus
from helpers.decode import (
    BOS,
    EOS,
    beam_search,
    beam_trace,
    greedy_decode,
    next_token_topk,
    translate,
    translation_ids,
    translation_topk,
)
from helpers.runtime.errors import HelpersError
from helpers.widgets.explorer import sentence_text

A, B = 3, 4  # the toy's two words (ids 0-2 are <pad>, <bos>, <eos>)
# p(next | previous token): rows are the previous token, columns the ids 0..4
TABLE = {BOS: [0, 0, 0.0, 0.6, 0.4], A: [0, 0, 0.2, 0.5, 0.3], B: [0, 0, 0.9, 0.05, 0.05]}


class _ToyState:
    def __init__(self, prev):
        self.prev = prev

    def index_select(self, rows):
        return _ToyState(self.prev[rows])


class ToyDecoder(torch.nn.Module):
    """p(y_t | y_<t, x) = TABLE[y_{t-1}]: the source is ignored; no attention."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.zeros(1))

    def start(self, src, src_lens):
        return _ToyState(torch.full((src.shape[0],), BOS))

    def step(self, prev, state):
        probs = torch.tensor([TABLE[int(p)] for p in prev], dtype=torch.float64)
        return torch.log(probs), None, _ToyState(prev)


def test_topk_of_the_toy_is_its_table_sorted():
    top = next_token_topk(ToyDecoder(), [5], [A, A], k=3)  # steps: after <bos>, after A, after A (the <eos> step)
    assert top.ids.tolist() == [[A, B, 0], [A, B, EOS], [A, B, EOS]]  # ties (0 = 0 = 0) keep the smaller id
    assert np.allclose(top.probs, [[0.6, 0.4, 0.0], [0.5, 0.3, 0.2], [0.5, 0.3, 0.2]], atol=1e-12)
    assert top.chosen == [A, A, EOS]
    assert np.allclose(top.chosen_prob, [0.6, 0.5, 0.2]) and top.chosen_rank == [1, 1, 3]


def test_toy_beam_trace_by_hand():
    """k = 2, α = 1 (log p / |y|). By hand: step 1 keeps A (0.6), B (0.4). Step 2: B <eos> (0.4 · 0.9 = 0.36) is
    the best candidate and ends; A A (0.30) and A B (0.18) are kept; A <eos> (0.12) is 4th, not among the k
    best. Step 3: A B <eos> (0.18 · 0.9 = 0.162) ends first, A A A (0.15) and A A B (0.09) follow; two ended
    hypotheses = k: stop. Scores: log 0.36 / 2 = -0.511 beats log 0.162 / 3 = -0.607, so B wins."""
    trace = beam_trace(ToyDecoder(), [5], beam_size=2, length_penalty=1.0)
    kept = [[(ids, round(math.exp(lp), 6)) for ids, lp in st.kept] for st in trace.steps]
    ended = [[(ids, round(math.exp(lp), 6), round(score, 4), done) for ids, lp, score, done in st.ended]
             for st in trace.steps]
    assert kept == [[([A], 0.6), ([B], 0.4)], [([A, A], 0.3), ([A, B], 0.18)], []]
    assert ended == [[], [([B], 0.36, round(math.log(0.36) / 2, 4), True)],
                     [([A, B], 0.162, round(math.log(0.162) / 3, 4), True)]]
    assert trace.best == (1, 0) and trace.chosen[0] == [B]
    assert trace.result.tokens == [[B]] and trace.result.scores[0] == pytest.approx(math.log(0.36))


def test_toy_greedy_never_ends_and_beam_one_is_greedy():
    src, lens = torch.tensor([[5]]), torch.tensor([1])
    greedy = greedy_decode(ToyDecoder(), src, lens, max_len=4)
    assert greedy.tokens == [[A, A, A, A]] and greedy.finished == [False]  # 0.6 · 0.5³ and never <eos>
    assert greedy.scores[0] == pytest.approx(math.log(0.6 * 0.5 ** 3))
    one = beam_trace(ToyDecoder(), [5], beam_size=1, max_len=4)
    assert one.result.tokens == greedy.tokens and one.chosen[3] is False
    assert one.result.scores[0] == pytest.approx(greedy.scores[0])


@pytest.fixture(scope="module")
def models():
    return {name: helpers.load_pretrained(name) for name in ("luong-general", "bahdanau", "luong-concat")}


@pytest.fixture(scope="module")
def sentences():
    return [sentence_text(p.src) for p in load_corpus("test")[:6]] + ["my friend Xiaoming is a student", "i love 🍎"]


@pytest.fixture(scope="module")
def with_long(sentences):
    return sentences + [sentence_text(load_corpus("long")[0].src)]


def _forward_logits(model, src, out):
    """Teacher-forced logits [T, V] from ``model.forward`` (the training path, not the step loop)."""
    with torch.no_grad():
        model.eval()
        logits, _ = model(torch.tensor([src]), torch.tensor([len(src)]), torch.tensor([[BOS] + out]))
    return logits[0].double().numpy()


def test_top_one_is_the_greedy_token_at_every_step(models, with_long):
    for model in models.values():
        for text in with_long:
            t = translate(model, text)
            src, out = translation_ids(model, t)
            greedy = greedy_decode(model, torch.tensor([src]), torch.tensor([len(src)]))
            top = translation_topk(model, t)
            expected = greedy.tokens[0] + ([EOS] if greedy.finished[0] else [])
            assert top.ids[:, 0].tolist() == expected == top.chosen, text
            assert top.probs.shape == (t.attention.shape[0], 5)


def test_probabilities_are_the_softmax_of_independently_computed_logits(models, with_long):
    for model in models.values():
        for text in with_long:
            t = translate(model, text)
            src, out = translation_ids(model, t)
            logits = _forward_logits(model, src, out)  # [T, V]
            e = np.exp(logits - logits.max(axis=1, keepdims=True))
            p = e / e.sum(axis=1, keepdims=True)  # softmax by hand
            top = translation_topk(model, t)
            for j in range(len(top.chosen)):
                by_hand = sorted(range(p.shape[1]), key=lambda i: -p[j, i])[:5]
                assert np.allclose(top.probs[j], p[j, by_hand], rtol=0, atol=1e-5), (text, j)  # float32 logits
                assert top.probs[j].sum() <= 1 + 1e-12
                assert all(top.probs[j, i] >= top.probs[j, i + 1] for i in range(4))
                assert top.chosen_prob[j] == pytest.approx(p[j, top.chosen[j]], abs=1e-5)


def test_topk_follows_a_copied_word_as_the_unk_the_decoder_emitted(models):
    model = models["luong-general"]
    t = translate(model, "xiaoming likes tea .")
    assert t.copied, "the name is expected to be copied through <unk>"
    top = translation_topk(model, t)
    for c in t.copied:
        assert top.tokens[c.tgt_index][0] == "<unk>"


def test_beam_trace_returns_what_beam_search_returns(models, sentences):
    for model in models.values():
        for text in sentences:
            src, _ = translation_ids(model, translate(model, text))
            trace = beam_trace(model, src, beam_size=3)
            plain = beam_search(model, torch.tensor([src]), torch.tensor([len(src)]), beam_size=3)
            assert trace.result.tokens == plain.tokens and trace.result.scores == plain.scores
            assert trace.chosen[0] == plain.tokens[0]


def test_beam_width_one_is_greedy(models, sentences):
    for model in models.values():
        for text in sentences:
            t = translate(model, text)
            src, out = translation_ids(model, t)
            trace = beam_trace(model, src, beam_size=1)
            assert trace.chosen[0] == out  # translate decodes greedily (the shipped decoding)
            assert [len(st.kept) for st in trace.steps[:-1]] == [1] * (len(trace.steps) - 1)


def test_every_hypothesis_score_is_the_sum_of_its_teacher_forced_log_probabilities(models, sentences):
    model = models["bahdanau"]  # the softest model: its beams differ most
    checked = 0
    for text in sentences[:5]:
        src, _ = translation_ids(model, translate(model, text))
        trace = beam_trace(model, src, beam_size=3)
        for st in trace.steps:
            hyps = [(ids, lp, False) for ids, lp in st.kept] + [(ids, lp, done) for ids, lp, _, done in st.ended]
            for ids, logp, ended in hyps:
                logits = _forward_logits(model, src, list(ids))  # [len + 1, V]
                logsm = logits - np.log(np.exp(logits - logits.max(1, keepdims=True)).sum(1, keepdims=True)) \
                    - logits.max(1, keepdims=True)
                targets = list(ids) + ([EOS] if ended else [])
                assert logp == pytest.approx(sum(logsm[j, y] for j, y in enumerate(targets)), abs=1e-4)
                checked += 1
            assert [lp for _, lp in st.kept] == sorted((lp for _, lp in st.kept), reverse=True)
            assert all(len(ids) == st.t for ids, _ in st.kept)
    assert checked > 60


def test_the_first_beam_step_keeps_the_k_most_probable_first_words(models):
    model = models["bahdanau"]
    t = translate(model, "the cat that i saw is black .")
    src, _ = translation_ids(model, t)
    top = translation_topk(model, t, k=6)
    first = [(i, p) for i, p in zip(top.ids[0], top.probs[0]) if i != EOS][:4]
    kept = beam_trace(model, src, beam_size=4).steps[0].kept
    assert [ids for ids, _ in kept] == [[int(i)] for i, _ in first]
    assert [lp for _, lp in kept] == pytest.approx([math.log(p) for _, p in first], abs=1e-5)


@pytest.mark.parametrize("call", [
    lambda m: next_token_topk(m, [], [3]),
    lambda m: next_token_topk(m, [5], [], finished=False),
    lambda m: next_token_topk(m, [5], [3], k=0),
    lambda m: beam_trace(m, [], beam_size=2),
    lambda m: beam_trace(m, [5], beam_size=0),
])
def test_bad_arguments_are_helpers_errors(call):
    with pytest.raises(HelpersError):
        call(ToyDecoder())
