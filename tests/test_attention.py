"""Tests for helpers.attention: Eq. (9-37)-(9-40) against hand computations."""

import math

import pytest
import torch

from helpers.attention import (
    AdditiveScore,
    Attention,
    AttentionResult,
    AttentionVector,
    ConcatScore,
    DotScore,
    GeneralScore,
    ScaledDotScore,
    attention_vector,
    context_vector,
    hard_weights,
    masked_softmax,
)
from helpers.runtime.errors import HelpersError, ShapeError

Q = torch.tensor([[[1.0, 2.0]]])  # [B=1, T=1, D=2]
K = torch.tensor([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]])  # [B=1, S=3, D=2]


def close(a, b, tol=1e-6):
    return torch.allclose(torch.as_tensor(a, dtype=torch.float64), torch.as_tensor(b, dtype=torch.float64), atol=tol)


# ------------------------------------------------------------------ Eq. (9-40): every score by hand
def test_dot_score_by_hand():
    # q·k: [1*1+2*0, 1*0+2*1, 1*1+2*1] = [1, 2, 3]
    assert close(DotScore()(Q, K), [[[1.0, 2.0, 3.0]]])


def test_scaled_dot_score_divides_by_sqrt_d():
    r = 1 / math.sqrt(2)
    assert close(ScaledDotScore()(Q, K), [[[1 * r, 2 * r, 3 * r]]])


def test_general_score_by_hand():
    g = GeneralScore(2, 2)
    with torch.no_grad():
        g.W_a.copy_(torch.tensor([[1.0, 2.0], [0.0, 1.0]]))
    # qᵀ W_a = [1, 2] @ [[1, 2], [0, 1]] = [1, 4]; then · k = [1, 4, 5]
    assert close(g(Q, K), [[[1.0, 4.0, 5.0]]])


def test_general_score_with_identity_equals_dot():
    g = GeneralScore(2, 2)
    with torch.no_grad():
        g.W_a.copy_(torch.eye(2))
    assert close(g(Q, K), [[[1.0, 2.0, 3.0]]])


def test_general_score_allows_different_query_and_key_sizes():
    g = GeneralScore(2, 3)
    with torch.no_grad():
        g.W_a.copy_(torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]))
    keys = torch.tensor([[[1.0, 1.0, 1.0], [0.0, 0.0, 2.0]]])  # [1, 2, 3]
    # qᵀ W_a = [1, 2, 1]; · keys = [1+2+1, 2] = [4, 2]
    assert close(g(Q, keys), [[[4.0, 2.0]]])


def test_concat_score_by_hand():
    c = ConcatScore(2, 2, hidden=2)
    W_a = [[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, -1.0]]
    v_a = [2.0, -1.0]
    with torch.no_grad():
        c.W_a.copy_(torch.tensor(W_a))
        c.v_a.copy_(torch.tensor(v_a))
    expected = []
    for k in K[0].tolist():
        qk = [1.0, 2.0] + k  # [q; k]
        hidden = [math.tanh(sum(w * x for w, x in zip(row, qk))) for row in W_a]
        expected.append(sum(v * h for v, h in zip(v_a, hidden)))
    assert close(c(Q, K), [[expected]])


def test_additive_score_by_hand():
    a = AdditiveScore(2, 2, hidden=2)
    W_q, W_k, v_a = [[1.0, -1.0], [0.5, 0.0]], [[0.0, 1.0], [2.0, 1.0]], [1.0, 3.0]
    with torch.no_grad():
        a.W_q.copy_(torch.tensor(W_q))
        a.W_k.copy_(torch.tensor(W_k))
        a.v_a.copy_(torch.tensor(v_a))
    q = [1.0, 2.0]
    expected = []
    for k in K[0].tolist():
        hidden = [math.tanh(sum(wq * x for wq, x in zip(W_q[i], q)) + sum(wk * x for wk, x in zip(W_k[i], k)))
                  for i in range(2)]
        expected.append(sum(v * h for v, h in zip(v_a, hidden)))
    assert close(a(Q, K), [[expected]])


def test_score_parameters_are_named_after_the_formula():
    assert {n for n, _ in GeneralScore(2, 2).named_parameters()} == {"W_a"}
    assert {n for n, _ in ConcatScore(2, 2, 3).named_parameters()} == {"W_a", "v_a"}
    assert {n for n, _ in AdditiveScore(2, 2, 3).named_parameters()} == {"W_q", "W_k", "v_a"}


@pytest.mark.parametrize("make", [DotScore, ScaledDotScore, lambda: GeneralScore(3, 3),
                                  lambda: ConcatScore(3, 3, 4), lambda: AdditiveScore(3, 3, 4)])
def test_every_score_passes_gradcheck_in_float64(make):
    torch.manual_seed(0)
    score = make().double()
    q = torch.randn(2, 2, 3, dtype=torch.float64, requires_grad=True)
    k = torch.randn(2, 4, 3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a, b: score(a, b), (q, k))


@pytest.mark.parametrize("make", [lambda: GeneralScore(3, 3), lambda: ConcatScore(3, 3, 4),
                                  lambda: AdditiveScore(3, 3, 4)])
def test_score_parameter_gradients_pass_gradcheck(make):
    torch.manual_seed(1)
    score = make().double()
    q = torch.randn(2, 2, 3, dtype=torch.float64)
    k = torch.randn(2, 4, 3, dtype=torch.float64)
    names = [n for n, _ in score.named_parameters()]

    def f(*ps):
        return torch.func.functional_call(score, dict(zip(names, ps)), (q, k))

    inputs = tuple(p.detach().clone().requires_grad_(True) for p in score.parameters())
    assert torch.autograd.gradcheck(f, inputs)


def test_score_output_shape_is_b_t_s():
    q, k = torch.randn(2, 5, 4), torch.randn(2, 7, 4)
    assert GeneralScore(4, 4)(q, k).shape == (2, 5, 7)


# ------------------------------------------------------------------ Eq. (9-37): masked softmax
def test_masked_softmax_by_hand():
    w = masked_softmax(torch.tensor([[1.0, 2.0, 3.0]]), torch.tensor([[True, True, False]]))
    z = math.exp(1) + math.exp(2)
    assert close(w, [[math.exp(1) / z, math.exp(2) / z, 0.0]])


def test_padding_gets_zero_weight():
    scores = torch.tensor([[[5.0, 1.0, 100.0, 100.0]]])
    w = masked_softmax(scores, torch.tensor([[True, True, False, False]]))
    assert w[0, 0, 2].item() == 0.0 and w[0, 0, 3].item() == 0.0


def test_weights_sum_to_one_over_valid_positions():
    torch.manual_seed(0)
    scores = torch.randn(3, 4, 5)
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 0, 0, 0], [1, 0, 0, 0, 0]], dtype=torch.bool)
    w = masked_softmax(scores, mask)
    assert close(w.sum(-1), torch.ones(3, 4))


def test_source_mask_broadcasts_over_query_steps():
    scores = torch.zeros(1, 2, 3)  # equal scores -> uniform over valid positions
    w = masked_softmax(scores, torch.tensor([[True, False, True]]))
    assert close(w, [[[0.5, 0.0, 0.5], [0.5, 0.0, 0.5]]])


def test_full_shape_mask_masks_each_row_separately():
    scores = torch.zeros(1, 2, 2)
    mask = torch.tensor([[[True, False], [False, True]]])
    assert close(masked_softmax(scores, mask), [[[1.0, 0.0], [0.0, 1.0]]])


def test_no_mask_is_plain_softmax():
    z = math.exp(0) + math.exp(1)
    assert close(masked_softmax(torch.tensor([[0.0, 1.0]]), None), [[1 / z, math.exp(1) / z]])


def test_fully_masked_row_gives_zeros():
    w = masked_softmax(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[False, False], [True, True]]))
    assert w[0].tolist() == [0.0, 0.0]


def test_fully_masked_row_has_finite_gradients():
    scores = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    w = masked_softmax(scores, torch.tensor([[False, False], [True, False]]))
    (w * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert torch.isfinite(scores.grad).all() and scores.grad[0].tolist() == [0.0, 0.0]


def test_masked_softmax_passes_gradcheck_with_a_fully_masked_row():
    torch.manual_seed(0)
    scores = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    mask = torch.tensor([[1, 1, 0, 1], [0, 0, 0, 0], [1, 0, 0, 0]], dtype=torch.bool)
    assert torch.autograd.gradcheck(lambda s: masked_softmax(s, mask), (scores,))


def test_masked_softmax_rejects_a_mask_of_the_wrong_shape():
    with pytest.raises(ShapeError, match="expected"):
        masked_softmax(torch.zeros(2, 3, 4), torch.ones(2, 5, dtype=torch.bool))


# ------------------------------------------------------------------ hard attention
def test_hard_weights_are_one_hot_at_the_max():
    assert hard_weights(torch.tensor([[0.1, 0.7, 0.2]])).tolist() == [[0.0, 1.0, 0.0]]


def test_hard_attention_never_picks_a_masked_position():
    w = hard_weights(torch.tensor([[9.0, 1.0, 2.0]]), torch.tensor([[False, True, True]]))
    assert w.tolist() == [[0.0, 0.0, 1.0]]


def test_hard_attention_fully_masked_row_gives_zeros():
    w = hard_weights(torch.tensor([[9.0, 1.0]]), torch.tensor([[False, False]]))
    assert w.tolist() == [[0.0, 0.0]]


def test_attention_module_hard_context_is_the_chosen_value():
    attn = Attention("dot", hard=True)
    values = torch.tensor([[[10.0], [20.0], [30.0]]])  # [1, 3, 1]
    r = attn(Q, K, values, mask=torch.tensor([[True, True, False]]))
    # scores [1, 2, 3], position 2 masked -> pick position 1 -> context 20
    assert r.weights.tolist() == [[[0.0, 1.0, 0.0]]] and r.context.tolist() == [[[20.0]]]


# ------------------------------------------------------------------ Eq. (9-38), (9-39)
def test_context_vector_by_hand():
    values = torch.tensor([[[1.0, 2.0], [3.0, 4.0]]])  # [1, 2, 2]
    c = context_vector(torch.tensor([[0.25, 0.75]]), values)
    assert close(c, [[0.25 * 1 + 0.75 * 3, 0.25 * 2 + 0.75 * 4]])


def test_context_vector_with_query_steps():
    values = torch.tensor([[[1.0], [3.0]]])
    assert close(context_vector(torch.tensor([[[1.0, 0.0], [0.5, 0.5]]]), values), [[[1.0], [2.0]]])


def test_attention_vector_concatenates_context_first():
    c, h = torch.tensor([[1.0]]), torch.tensor([[2.0]])
    W_c = torch.tensor([[1.0, 0.0]])  # picks the first half of [c; h], i.e. c
    assert close(attention_vector(c, h, W_c), [[math.tanh(1.0)]])


def test_attention_vector_by_hand():
    c, h = torch.tensor([[1.0, -1.0]]), torch.tensor([[0.5]])
    W_c = torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0]])
    # [c; h] = [1, -1, 0.5]
    assert close(attention_vector(c, h, W_c), [[math.tanh(1 - 2 + 1.5), math.tanh(0 + 1 + 2)]])


def test_attention_vector_module_uses_its_W_c():
    m = AttentionVector(context_size=1, query_size=1, out_size=1)
    with torch.no_grad():
        m.W_c.copy_(torch.tensor([[0.0, 1.0]]))
    assert close(m(torch.tensor([[3.0]]), torch.tensor([[0.25]])), [[math.tanh(0.25)]])


def test_attention_vector_rejects_a_wrong_W_c():
    with pytest.raises(ShapeError):
        attention_vector(torch.zeros(1, 2), torch.zeros(1, 2), torch.zeros(3, 5))


# ------------------------------------------------------------------ the Attention module
def test_attention_result_by_hand():
    r = Attention("dot")(Q, K, mask=torch.tensor([[True, True, False]]))
    z = math.exp(1) + math.exp(2)
    a1, a2 = math.exp(1) / z, math.exp(2) / z
    assert isinstance(r, AttentionResult)
    assert close(r.scores, [[[1.0, 2.0, 3.0]]])
    assert close(r.weights, [[[a1, a2, 0.0]]])
    assert close(r.context, [[[a1 * 1 + a2 * 0, a1 * 0 + a2 * 1]]])


def test_one_step_query_gives_two_dimensional_results():
    r = Attention("general", query_size=4, key_size=6)(torch.randn(3, 4), torch.randn(3, 5, 6),
                                                        torch.randn(3, 5, 7))
    assert (r.context.shape, r.weights.shape, r.scores.shape) == ((3, 7), (3, 5), (3, 5))


def test_values_default_to_keys():
    keys = torch.tensor([[[2.0, 0.0], [2.0, 0.0]]])
    assert close(Attention("dot")(torch.tensor([[1.0, 1.0]]), keys).context, [[2.0, 0.0]])


@pytest.mark.parametrize("name", ["dot", "scaled_dot", "general", "concat", "additive"])
def test_attention_accepts_every_score_name(name):
    r = Attention(name, query_size=4, key_size=4, hidden=5)(torch.randn(2, 3, 4), torch.randn(2, 6, 4))
    assert r.weights.shape == (2, 3, 6)


def test_unknown_score_name_is_a_helpers_error():
    with pytest.raises(HelpersError, match="unknown score"):
        Attention("cosine")


def test_parametrised_score_name_without_sizes_is_a_helpers_error():
    with pytest.raises(HelpersError, match="query_size"):
        Attention("general")


def test_mismatched_batch_raises_shape_error_naming_both_shapes():
    with pytest.raises(ShapeError) as e:
        Attention("dot")(torch.randn(2, 3, 4), torch.randn(5, 6, 4))
    assert "[5, 6, 4]" in str(e.value) and "B=2" in str(e.value)


def test_dot_with_different_sizes_raises_shape_error():
    with pytest.raises(ShapeError, match="Dk=4"):
        DotScore()(torch.randn(1, 1, 4), torch.randn(1, 2, 3))


def test_wrong_query_size_for_general_raises_shape_error():
    with pytest.raises(ShapeError, match="Dq=4"):
        GeneralScore(4, 4)(torch.randn(1, 1, 3), torch.randn(1, 2, 4))


def test_keys_without_batch_dim_raise_shape_error():
    with pytest.raises(ShapeError, match=r"\[B, S, Dk\]"):
        Attention("dot")(torch.randn(1, 4), torch.randn(6, 4))


def test_values_of_wrong_length_raise_shape_error():
    with pytest.raises(ShapeError, match="S=6"):
        Attention("dot")(torch.randn(1, 4), torch.randn(1, 6, 4), torch.randn(1, 5, 4))


def test_shape_errors_are_value_errors():
    assert issubclass(ShapeError, ValueError)
