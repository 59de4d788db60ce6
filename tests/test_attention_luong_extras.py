"""Luong et al. 2015 extras in helpers.attention: the location score (E2), local-m (E3) and local-p (E4), (E5).

Every number is worked out by hand in the comments; the tiny example is one query over S = 3 source
positions, counted from 1 as in the paper.
"""

import math

import pytest
import torch

from helpers.attention import (
    Attention,
    AttentionResult,
    DotScore,
    GeneralScore,
    LocalAttention,
    LocalAttentionResult,
    LocationScore,
    make_score,
)
from helpers.runtime.errors import HelpersError, ShapeError

Q = torch.tensor([[[1.0, 2.0]]])  # [B=1, T=1, D=2]
K = torch.tensor([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]])  # [B=1, S=3, D=2]; dot scores [1, 2, 3]


def close(a, b, tol=1e-6):
    return torch.allclose(torch.as_tensor(a, dtype=torch.float64), torch.as_tensor(b, dtype=torch.float64), atol=tol)


def local_dot(window=1, v_p=None, W_p=None):
    """Local-p attention with the dot score; v_p = 0 makes sigmoid(...) = 1/2, so p_t = S_i / 2."""
    attn = LocalAttention(DotScore(), window=window, query_size=2)
    with torch.no_grad():
        attn.W_p.copy_(torch.eye(2) if W_p is None else torch.as_tensor(W_p))
        attn.v_p.copy_(torch.zeros(2) if v_p is None else torch.as_tensor(v_p))
    return attn


# ------------------------------------------------------------------ (E2) location-based score
def location_score():
    score = LocationScore(query_size=2, max_source_len=4)
    with torch.no_grad():
        score.W_a.copy_(torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0]]))
    return score


def test_location_score_by_hand_drops_rows_beyond_s():
    # W_a h_t = [1*1+0*2, 0*1+1*2, 1*1+1*2, 2*1+0*2] = [1, 2, 3, 2]; S = 3 keeps the first three
    assert close(location_score()(Q, K), [[[1.0, 2.0, 3.0]]])


def test_location_score_ignores_what_the_keys_contain():
    assert close(location_score()(Q, K), location_score()(Q, torch.randn(1, 3, 5)))


def test_location_score_rejects_a_source_longer_than_its_table():
    with pytest.raises(ShapeError, match="max_source_len"):
        location_score()(Q, torch.zeros(1, 5, 2))


def test_location_score_rejects_a_query_of_the_wrong_size():
    with pytest.raises(ShapeError, match="形状不对"):
        location_score()(torch.zeros(1, 1, 3), K)


def test_attention_accepts_the_name_location():
    attn = Attention("location", query_size=2, max_source_len=4)
    with torch.no_grad():
        attn.score.W_a.copy_(location_score().W_a)
    r = attn(Q, K)
    e = [math.exp(1), math.exp(2), math.exp(3)]
    assert close(r.weights, [[[x / sum(e) for x in e]]])  # softmax([1, 2, 3])


def test_make_score_location_needs_max_source_len():
    with pytest.raises(HelpersError, match="max_source_len"):
        make_score("location", query_size=2, key_size=2)


def test_location_score_respects_the_padding_mask():
    attn = Attention(location_score())
    r = attn(Q, K, mask=torch.tensor([[True, True, False]]))
    e = [math.exp(1), math.exp(2)]
    assert close(r.weights, [[[e[0] / sum(e), e[1] / sum(e), 0.0]]])


# ------------------------------------------------------------------ (E4), (E5) local-p attention
def test_local_weights_by_hand():
    # p_t = 3 · sigmoid(0) = 1.5; D = 1: window |s − 1.5| ≤ 1 keeps s = 1, 2 and drops s = 3.
    # align = softmax([1, 2]) = [1/(1+e), e/(1+e)]; σ = 1/2, Gaussian at s = 1, 2: exp(−0.25/0.5) = e^−0.5
    r = local_dot(window=1)(Q, K)
    g = math.exp(-0.5)
    assert close(r.positions, [[1.5]])
    assert close(r.weights, [[[g / (1 + math.e), g * math.e / (1 + math.e), 0.0]]])


def test_local_context_is_the_weighted_sum_inside_the_window():
    r = local_dot(window=1)(Q, K)
    w1, w2 = r.weights[0, 0, 0].item(), r.weights[0, 0, 1].item()
    assert close(r.context, [[[w1 * 1.0 + w2 * 0.0, w1 * 0.0 + w2 * 1.0]]])  # w1·k_1 + w2·k_2


def test_local_position_by_hand():
    # W_p = I, v_p = [1, 0]: p_t = 3 · sigmoid(tanh(1)) for the query [1, 2]
    r = local_dot(window=2, v_p=[1.0, 0.0])(Q, K)
    expected = 3 / (1 + math.exp(-math.tanh(1.0)))
    assert close(r.positions, [[expected]])


def test_local_weights_are_zero_outside_the_window():
    torch.manual_seed(0)
    attn = LocalAttention(GeneralScore(4, 4), window=2)
    r = attn(torch.randn(2, 5, 4), torch.randn(2, 12, 4))
    s = torch.arange(1, 13, dtype=torch.float32)
    outside = (s - r.positions[..., None]).abs() > 2  # [B, T, S]
    assert outside.any()
    assert torch.all(r.weights[outside] == 0)


def test_local_uses_the_true_length_and_gives_pads_zero_weight():
    # Sentence 2 has S_i = 2 (one pad): p_t = 2 · 1/2 = 1.0, not 3 · 1/2 = 1.5.
    # D = 1 keeps s = 1, 2; align = softmax([1, 2]); Gaussian: s = 1 -> exp(0) = 1, s = 2 -> exp(−1/0.5) = e^−2
    queries = Q.expand(2, 1, 2)
    keys = K.expand(2, 3, 2)
    mask = torch.tensor([[True, True, True], [True, True, False]])
    r = local_dot(window=1)(queries, keys, mask=mask)
    assert close(r.positions, [[1.5], [1.0]])
    a1, a2 = 1 / (1 + math.e), math.e / (1 + math.e)
    assert close(r.weights[1], [[a1 * 1.0, a2 * math.exp(-2), 0.0]])


def test_local_fully_masked_row_gives_zeros_not_nan():
    r = local_dot(window=1)(Q, K, mask=torch.tensor([[False, False, False]]))
    assert torch.all(r.weights == 0) and torch.all(r.context == 0)


def test_local_window_covering_everything_is_global_attention_times_the_gaussian():
    # D = 10 covers all of S = 3: align is the ordinary softmax over [1, 2, 3]
    r = local_dot(window=10)(Q, K)
    e = torch.exp(torch.tensor([1.0, 2.0, 3.0]))
    gauss = torch.exp(-((torch.tensor([1.0, 2.0, 3.0]) - 1.5) ** 2) / (2 * 5.0**2))
    assert close(r.weights[0, 0], e / e.sum() * gauss)


def test_local_result_is_an_attention_result_with_shapes():
    attn = LocalAttention("general", window=2, query_size=4, key_size=6)
    r = attn(torch.randn(3, 5, 4), torch.randn(3, 7, 6), values=torch.randn(3, 7, 8))
    assert isinstance(r, AttentionResult) and isinstance(r, LocalAttentionResult)
    assert r.context.shape == (3, 5, 8)
    assert r.weights.shape == r.scores.shape == (3, 5, 7)
    assert r.positions.shape == (3, 5)


def test_local_one_step_query_gives_one_step_shapes():
    r = LocalAttention("general", window=2, query_size=4, key_size=4)(torch.randn(3, 4), torch.randn(3, 7, 4))
    assert r.context.shape == (3, 4) and r.weights.shape == (3, 7) and r.positions.shape == (3,)


def test_local_positions_stay_inside_the_true_length():
    torch.manual_seed(1)
    attn = LocalAttention("general", window=2, query_size=4, key_size=4)
    mask = torch.arange(9)[None, :] < torch.tensor([[9], [4]])  # lengths 9 and 4
    r = attn(torch.randn(2, 6, 4) * 5, torch.randn(2, 9, 4), mask=mask)
    assert torch.all(r.positions > 0)
    assert torch.all(r.positions[0] < 9) and torch.all(r.positions[1] < 4)


def test_local_gradient_matches_finite_differences():
    torch.manual_seed(2)
    attn = LocalAttention(GeneralScore(3, 3).double(), window=2).double()
    q = torch.randn(2, 3, 3, dtype=torch.float64, requires_grad=True)
    k = torch.randn(2, 6, 3, dtype=torch.float64, requires_grad=True)
    mask = torch.tensor([[True] * 6, [True] * 4 + [False] * 2])
    with torch.no_grad():  # gradcheck steps by 1e-6: keep every |s − p_t| away from the window edge D
        r = attn(q, k, mask=mask)
        edge = ((torch.arange(1, 7, dtype=torch.float64) - r.positions[..., None]).abs() - 2).abs()
    assert edge.min() > 1e-3
    assert torch.autograd.gradcheck(lambda q, k: attn(q, k, mask=mask).context, (q, k))


def test_local_gradient_reaches_the_position_predictor():
    torch.manual_seed(3)
    attn = LocalAttention("general", window=2, query_size=4, key_size=4)
    attn(torch.randn(2, 3, 4), torch.randn(2, 8, 4)).context.sum().backward()
    assert attn.W_p.grad is not None and attn.W_p.grad.abs().sum() > 0
    assert attn.v_p.grad.abs().sum() > 0


@pytest.mark.parametrize("window", [0, -1, 1.5, True])
def test_local_rejects_a_window_that_is_not_a_positive_int(window):
    with pytest.raises(HelpersError, match="window"):
        LocalAttention("dot", window=window, query_size=2)


def test_local_needs_query_size_for_a_score_without_sizes():
    with pytest.raises(HelpersError, match="query_size"):
        LocalAttention("dot", window=2)


@pytest.mark.parametrize(
    "query, keys, mask",
    [
        (torch.zeros(1, 1, 3), K, None),  # query feature size 3, W_p expects 2
        (Q, torch.zeros(3, 2), None),  # keys not [B, S, D]
        (Q, torch.zeros(2, 3, 2), None),  # batch sizes differ
        (Q, K, torch.ones(1, 4, dtype=torch.bool)),  # mask for S = 4, keys have S = 3
    ],
)
def test_local_bad_shapes_raise_a_bilingual_shape_error(query, keys, mask):
    with pytest.raises(ShapeError, match=r"形状不对 \(wrong shape\)"):
        local_dot(window=1)(query, keys, mask=mask)


def test_local_bad_values_shape_raises_shape_error():
    with pytest.raises(ShapeError, match="values"):
        local_dot(window=1)(Q, K, values=torch.zeros(1, 2, 2))


# ------------------------------------------------------------------ (E3) local-m attention
K5 = torch.tensor([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0], [0.0, 2.0]]])  # [1, S=5, 2]
Q3 = torch.tensor([[[1.0, 2.0], [2.0, 1.0], [0.0, 1.0]]])  # [1, T=3, 2]


def softmax_over(values):
    e = [math.exp(v) for v in values]
    return [x / sum(e) for x in e]


def test_local_m_rows_are_a_hand_softmax_over_the_window_and_sum_to_one():
    # dot scores q_t · k_s; D = 1, p_t = t:
    #   t = 1, q = [1, 2]: window s = 1, 2 -> scores [1, 2]
    #   t = 2, q = [2, 1]: window s = 1, 2, 3 -> scores [2, 1, 3]
    #   t = 3, q = [0, 1]: window s = 2, 3, 4 -> scores [1, 1, 0]
    r = LocalAttention(DotScore(), window=1, mode="m")(Q3, K5)
    expected = [softmax_over([1, 2]) + [0.0, 0.0, 0.0],
                softmax_over([2, 1, 3]) + [0.0, 0.0],
                [0.0] + softmax_over([1, 1, 0]) + [0.0]]
    assert close(r.weights[0], expected)
    assert close(r.weights.sum(-1), [[1.0, 1.0, 1.0]])
    assert close(r.positions, [[1.0, 2.0, 3.0]])


def test_local_m_has_no_gaussian_and_no_parameters():
    attn = LocalAttention(DotScore(), window=10, mode="m")
    assert list(attn.parameters()) == []
    r = attn(Q, K)  # the window covers all of S = 3: plain softmax over the dot scores [1, 2, 3]
    assert close(r.weights[0, 0], softmax_over([1, 2, 3]))


def test_local_m_one_step_query_uses_the_given_step():
    attn = LocalAttention(DotScore(), window=1, mode="m")
    r = attn(Q3[:, 1], K5, t=2)  # the second query at t = 2
    assert close(r.weights, [softmax_over([2, 1, 3]) + [0.0, 0.0]])
    assert close(r.positions, [2.0])


def test_local_m_one_step_without_a_step_says_what_to_pass():
    with pytest.raises(HelpersError, match="t=3"):
        LocalAttention(DotScore(), window=1, mode="m")(Q3[:, 0], K5)


def test_local_m_centre_stops_at_the_true_length_and_pads_get_nothing():
    # S_i = 2 (three pads): steps t = 1, 2, 3 have centres 1, 2, 2; D = 1
    mask = torch.tensor([[True, True, False, False, False]])
    r = LocalAttention(DotScore(), window=1, mode="m")(Q3, K5, mask=mask)
    assert close(r.positions, [[1.0, 2.0, 2.0]])
    # t = 3, q = [0, 1]: the window s = 1, 2, 3 holds only the real s = 1, 2, scores [0, 1]
    assert close(r.weights[0, 2], softmax_over([0, 1]) + [0.0, 0.0, 0.0])
    assert torch.all(r.weights[0, :, 2:] == 0)


def test_local_rejects_an_unknown_mode():
    with pytest.raises(HelpersError, match="mode"):
        LocalAttention(DotScore(), window=1, mode="x")
