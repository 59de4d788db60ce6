"""The two exercises of notebook 05 that assemble a whole decoding step (helpers/exercises/nb05_steps.py):
solutions written independently pass, the typical mistakes of each paper's order are named, and the
prompts of the seven piece-by-piece exercises no longer give the formula away."""

from __future__ import annotations

import pytest
import torch
from exercise_support import fresh_hints  # noqa: F401 - autouse fixture

from helpers.exercises import EXERCISES, check

INF = float("-inf")


def _msm(s, m):
    return torch.softmax(s.masked_fill(~m, INF), -1).masked_fill(~m, 0.0)


def _luong(emb, ht, hp, enc, mask, cell, W_a, W_c, *, feed_first=True, query_new=True, use_mask=True,
           c_first=True, act=torch.tanh):
    """A step written out with einsum, as a student might, with switches for the usual mistakes."""
    h = cell(torch.cat([emb, ht] if feed_first else [ht, emb], -1), hp)
    q = h if query_new else hp
    scores = torch.einsum("bi,ij,bsj->bs", q, W_a, enc)
    alpha = _msm(scores, mask if use_mask else torch.ones_like(mask))
    c = torch.einsum("bs,bsh->bh", alpha, enc)
    return h, act(torch.cat([c, h] if c_first else [h, c], -1) @ W_c.T), alpha


def _bahdanau(emb, sp, enc, mask, cell, W_q, W_k, v_a, *, use_mask=True, act=torch.tanh, emb_first=True):
    scores = torch.einsum("bsa,a->bs", act(torch.einsum("ah,bh->ba", W_q, sp)[:, None, :]
                                           + torch.einsum("ak,bsk->bsa", W_k, enc)), v_a)
    alpha = _msm(scores, mask if use_mask else torch.ones_like(mask))
    c = torch.einsum("bs,bsk->bk", alpha, enc)
    return cell(torch.cat([emb, c] if emb_first else [c, emb], -1), sp), c, alpha


def test_luong_solution_written_independently_passes():
    assert check("luong_step", _luong).passed


def test_bahdanau_solution_written_independently_passes():
    assert check("bahdanau_step", _bahdanau).passed


def test_luong_reference_on_a_hand_computed_case():
    """H = 1, one source word: α = 1, c = enc, h̃ = tanh(W_c [c; h])."""
    cell = lambda x, h: x.sum(-1, keepdim=True)  # noqa: E731 - a toy RNN: h_t = sum of the inputs
    emb, ht, hp = torch.tensor([[0.5]]), torch.tensor([[0.25]]), torch.tensor([[9.0]])
    enc, mask = torch.tensor([[[2.0]]]), torch.tensor([[True]])
    h, h_tilde, alpha = EXERCISES["luong_step"].solution(emb, ht, hp, enc, mask, cell,
                                                         torch.tensor([[1.0]]), torch.tensor([[1.0, -2.0]]))
    assert float(h) == 0.75 and float(alpha) == 1.0
    assert torch.isclose(h_tilde, torch.tanh(torch.tensor([[2.0 - 2 * 0.75]]))).all()


LUONG_MISTAKES = [
    (lambda *a: _luong(*a, query_new=False), "Bahdanau 的做法"),
    (lambda *a: _luong(*a, feed_first=False), "词向量在前"),
    (lambda *a: _luong(*a, use_mask=False), "mask ignored"),
    (lambda *a: _luong(*a, c_first=False), "[c_t; h_t]"),
    (lambda *a: _luong(*a, act=lambda x: x), "missing tanh"),
    (lambda *a: (lambda h, t, al: (t, h, al))(*_luong(*a)), "返回顺序"),
    (lambda emb, ht, hp, enc, mask, cell, W_a, W_c: cell(emb, hp), "[B, 7]"),  # input feeding left out
    (lambda *a: _luong(*a)[:2], "3 个张量"),
    (lambda *a: tuple(x.double().to(torch.complex64) for x in _luong(*a)), "complex"),
]

BAHDANAU_MISTAKES = [
    (lambda *a: _bahdanau(*a, use_mask=False), "mask ignored"),
    (lambda *a: _bahdanau(*a, act=lambda x: x), "missing tanh"),
    (lambda *a: _bahdanau(*a, emb_first=False), "词向量在前"),
    (lambda emb, sp, *rest: (sp, *_bahdanau(emb, sp, *rest)[1:]), "s_{t-1}"),
    (lambda emb, sp, enc, mask, cell, *p: cell(emb, sp), "[B, 9]"),  # c_t left out of the RNN input
]


@pytest.mark.parametrize("wrong, phrase", LUONG_MISTAKES)
def test_luong_mistake_is_named(wrong, phrase):
    result = check("luong_step", wrong)
    assert not result.passed
    assert phrase in result.message, result.message


@pytest.mark.parametrize("wrong, phrase", BAHDANAU_MISTAKES)
def test_bahdanau_mistake_is_named(wrong, phrase):
    result = check("bahdanau_step", wrong)
    assert not result.passed
    assert phrase in result.message, result.message


def test_checking_a_step_leaves_global_random_state_alone():
    torch.manual_seed(0)
    expected = torch.rand(3)
    torch.manual_seed(0)
    check("luong_step", _luong)
    assert torch.equal(torch.rand(3), expected)


PIECES = ["masked_softmax", "context_vector"]
FORMULA_SIGNS = ["@", "Σ", "·", "ᵀ", "tanh(", "softmax(", "= query", "= v_a", "argmax", "√"]


@pytest.mark.parametrize("exercise_id", PIECES)
def test_piece_prompt_names_the_shapes_but_not_the_formula(exercise_id):
    prompt = EXERCISES[exercise_id].prompt.replace(f"{exercise_id}(", "")  # the signature may stay
    assert "[" in prompt  # the shapes and their meaning are still given
    assert not [sign for sign in FORMULA_SIGNS if sign in prompt]
