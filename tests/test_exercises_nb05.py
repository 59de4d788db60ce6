"""The reading exercises of notebook 05 (helpers/exercises/nb05.py): solutions pass, typical wrong
answers get a specific message, hostile answers never raise."""

import math

import pytest
import torch
from exercise_support import fresh_hints  # noqa: F401 - autouse fixture

from helpers.exercises import EXERCISES, check, nb05

IDS = ["nb05_context_shape", "nb05_padding_weight"]


@pytest.mark.parametrize("exercise_id", IDS)
def test_exercise_is_registered_for_notebook_05(exercise_id):
    ex = EXERCISES[exercise_id]
    assert ex.notebook == "05_computation" and ex.title and ex.prompt and len(ex.hints) >= 2


# --------------------------------------------------------------------------- context shape
@pytest.mark.parametrize("answer", [(2, 5, 128), [2, 5, 128], torch.Size([2, 5, 128]), "[2, 5, 128]",
                                    "(2,5,128)"])
def test_context_shape_accepts_the_shape_in_any_spelling(answer):
    assert check("nb05_context_shape", answer).passed


@pytest.mark.parametrize("answer, clue", [
    ((2, 5, 7), "α"),
    ((2, 7, 128), "h̄"),
    ((2, 128), "one decoding step"),
    ((5, 2, 128), "wrong order"),
    ((2, 5, 256), "2H"),
    ((2, 5, 7, 128), "sum over s"),
])
def test_context_shape_names_the_typical_mistake(answer, clue):
    result = check("nb05_context_shape", answer)
    assert not result.passed and clue in result.message


def test_context_shape_second_failure_shows_more_hints():
    first = check("nb05_context_shape", (2, 5, 7))
    second = check("nb05_context_shape", (2, 5, 7))
    assert first.details["hints_shown"] == 1 and second.details["hints_shown"] == 2


# --------------------------------------------------------------------------- padding weight
def _hand_padding_weight():
    """By hand: zero keys give a general score of 0, so the padding share is n_pad / (n_pad + Σ_real exp(score))."""
    from helpers.decoders import top_layer
    from helpers.train import make_model

    model = make_model("luong-general", seed=nb05.PADDING_SEED)
    model.eval()
    short, long = (s.split() for s in nb05.PADDING_SENTENCES)
    ids = [model.src_vocab.encode(short) + [0] * (len(long) - len(short)), model.src_vocab.encode(long)]
    with torch.no_grad():
        state = model.start(torch.tensor(ids), torch.tensor([len(short), len(long)]))
        _, _, after = model.step(torch.tensor([1, 1]), state)
        h = top_layer(after.hidden)[0]  # [H]
        W_a = model.decoder.attention.score.W_a
        real = [math.exp(float(h @ W_a @ state.encoder_outputs[0, s])) for s in range(len(short))]
    n_pad = len(long) - len(short)
    return n_pad / (n_pad + sum(real)), n_pad


def test_padding_reference_equals_the_hand_computation():
    total, _, count = nb05.padding_weights()
    expected, n_pad = _hand_padding_weight()
    assert count == n_pad and abs(total - expected) < 1e-5


def test_padding_weight_accepts_the_value_rounded_to_two_decimals():
    total = nb05.padding_weights()[0]
    assert check("nb05_padding_weight", round(total, 2)).passed


@pytest.mark.parametrize("wrong, clue", [
    (lambda total, single: 0.0, "掩码"),
    (lambda total, single: 1.0 - total, "真实词"),
    (lambda total, single: single, "一个填充位置"),
    (lambda total, single: 1.7, "0 到 1"),
])
def test_padding_weight_names_the_typical_mistake(wrong, clue):
    total, single, _ = nb05.padding_weights()
    answer = wrong(total, single)
    if abs(answer - total) <= 0.01:
        pytest.fail("the wrong answer coincides with the reference; pick other sentences")
    result = check("nb05_padding_weight", answer)
    assert not result.passed and clue in result.message


# --------------------------------------------------------------------------- hostile answers
