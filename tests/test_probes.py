"""helpers.analysis.probes (edits of the attention weights) and helpers.analysis.attribution (gradients on the source
embeddings), each against a hand computation."""

import copy

import pytest
import torch

import helpers
from helpers.analysis.attribution import gradient_by_distance, gradient_x_input, source_gradients
from helpers.analysis.probes import (
    edit_attention,
    peak_removal,
    remove_peak,
    remove_random,
    shuffle,
    step_outputs,
    uniform,
    zero,
)
from helpers.attention import attention_vector
from helpers.corpus import load_corpus
from helpers.runtime.errors import HelpersError

W = torch.tensor([[0.5, 0.3, 0.2, 0.0], [0.1, 0.9, 0.0, 0.0]])
MASK = torch.tensor([[True, True, True, False], [True, True, False, False]])


@pytest.fixture(scope="module")
def dot_model():
    return helpers.load_pretrained("luong-dot")


def test_remove_peak_renormalises_the_rest_by_hand():
    out = remove_peak(W, MASK)
    assert torch.allclose(out, torch.tensor([[0.0, 0.6, 0.4, 0.0], [1.0, 0.0, 0.0, 0.0]]))


def test_remove_peak_of_a_one_hot_row_spreads_over_the_other_real_keys():
    out = remove_peak(torch.tensor([[0.0, 1.0, 0.0, 0.0]]), torch.tensor([[True, True, True, False]]))
    assert torch.allclose(out, torch.tensor([[0.5, 0.0, 0.5, 0.0]]))


def test_uniform_zero_and_shuffle_respect_the_mask():
    assert torch.allclose(uniform(W, MASK), torch.tensor([[1 / 3, 1 / 3, 1 / 3, 0.0], [0.5, 0.5, 0.0, 0.0]]))
    assert torch.equal(zero(W, MASK), torch.zeros_like(W))
    out = shuffle(torch.Generator().manual_seed(1))(W, MASK)
    assert torch.equal(out[:, 3], W[:, 3]) and out[1, 2] == 0
    assert sorted(out[0, :3].tolist()) == sorted(W[0, :3].tolist()) and sorted(out[1, :2].tolist()) == sorted(W[1, :2].tolist())


def test_remove_random_never_removes_the_peak():
    edit = remove_random(torch.Generator().manual_seed(0))
    for _ in range(20):
        out = edit(W, MASK)
        assert torch.allclose(out.sum(-1), torch.ones(2))
        assert (out.argmax(-1) == W.argmax(-1)).all() and (out == 0).sum() == 2 + 3  # one removed key per row, plus padding


def test_an_edit_at_one_step_matches_a_hand_computed_luong_step(dot_model):
    m = dot_model
    src, tgt, at = "i am a student .".split(), ["我", "是", "一", "名", "学生", "。"], 2
    plain, _ = step_outputs(m, src, tgt)
    edited, weights = step_outputs(m, src, tgt, edit=remove_peak, at=at)
    # by hand: step 2 of the Luong decoder with the peak key taken out of α_2
    with torch.no_grad():
        ids = torch.tensor([m.src_vocab.encode(src)])
        state = m.start(ids, torch.tensor([ids.shape[1]]))
        _, _, state = m.step(torch.tensor([1]), state)  # step 1 on <bos>
        x = m.decoder.embedding(torch.tensor([m.tgt_vocab.encode(["我"])[0]]))
        h, _ = m.decoder.rnn(x[:, None, :], state.hidden)
        h = h[:, 0]  # [1, H]
        alpha = m.decoder.attention(h, state.encoder_outputs, mask=state.src_mask).weights  # [1, S]
        k = int(alpha.argmax())
        hand = alpha.clone()
        hand[0, k] = 0
        hand = hand / hand.sum()
        c = hand @ state.encoder_outputs[0]  # [1, H]
        logits = m.decoder.W_s(attention_vector(c, h, m.decoder.W_c.weight))
    assert torch.allclose(weights[at - 1], hand[0], atol=1e-6)
    assert torch.allclose(edited[at - 1], torch.softmax(logits[0], -1), atol=1e-5)
    assert torch.allclose(edited[: at - 1], plain[: at - 1])


def test_edit_attention_restores_the_module_and_refuses_none():
    m = helpers.load_pretrained("luong-dot")
    inner = m.decoder.attention
    with edit_attention(m, zero):
        assert m.decoder.attention is not inner
    assert m.decoder.attention is inner
    with pytest.raises(HelpersError, match="没有注意力"):
        with edit_attention(helpers.load_pretrained("none"), zero):
            pass


def test_peak_removal_counts_steps_and_an_identity_edit_changes_nothing(dot_model):
    pairs = load_corpus("test")[:12]
    result = peak_removal(dot_model, pairs, {"same": lambda w, mask: w, "peak": remove_peak}, batch_size=5)
    outputs = [helpers.translate(dot_model, " ".join(p.src)).tgt_tokens for p in pairs]
    assert result.steps == sum(len(o) + 1 for o in outputs)  # every word and the <eos> step
    assert result.changed["same"] == 0 and abs(result.prob_drop["same"]) < 1e-6
    assert 0 < result.changed["peak"] <= 1 and 0 < result.peak_weight <= 1


def test_source_gradients_match_finite_differences(dot_model):
    m = copy.deepcopy(dot_model).double()
    src, tgt = "tom ate an apple yesterday .".split(), ["汤姆", "昨天", "吃", "了", "一", "个", "苹果", "。"]
    grads, emb = source_gradients(m, src, tgt)
    assert grads.shape == (len(tgt) + 1, len(src), emb.shape[-1])
    direction = torch.randn(emb.shape, generator=torch.Generator().manual_seed(0), dtype=torch.float64)

    def loss(shift, t):
        handle = m.encoder.embedding.register_forward_hook(lambda mod, args, out: out + shift * direction[None])
        try:
            probs, _ = step_outputs(m, src, tgt)
        finally:
            handle.remove()
        word = m.tgt_vocab.encode(tgt)[t] if t < len(tgt) else 2
        return -torch.log(probs[t, word])

    eps = 1e-5
    for t in (1, 4):
        numeric = (loss(eps, t) - loss(-eps, t)) / (2 * eps)
        assert float((grads[t] * direction).sum()) == pytest.approx(float(numeric), rel=1e-4, abs=1e-9)


def test_gradient_x_input_by_hand():
    grads = torch.tensor([[[1.0, 2.0], [0.5, -1.0]]])  # [T=1, S=2, E=2]
    emb = torch.tensor([[3.0, -1.0], [2.0, 2.0]])
    assert torch.allclose(gradient_x_input(grads, emb), torch.tensor([[1.0, 1.0]]))  # |3 - 2|, |1 - 2|


def test_gradient_by_distance_shares_and_norms_by_hand(dot_model):
    pair = load_corpus("test")[0]
    profile = gradient_by_distance(dot_model, [pair], max_distance=100)
    grads, _ = source_gradients(dot_model, pair.src, pair.tgt)
    norm = grads.norm(dim=-1)[: len(pair.tgt)]
    rows = [j for j in range(len(pair.tgt)) if any(jj == j for _, jj in pair.sure)]
    assert sum(s * n for s, n in zip(profile.mean_share, profile.counts)) == pytest.approx(len(rows))
    first = {j: min(i for i, jj in pair.sure if jj == j) for j in rows}
    at0 = [float(norm[j, first[j]]) for j in rows]
    assert profile.distances[0] == 0 and profile.mean_norm[0] == pytest.approx(sum(at0) / len(at0), rel=1e-5)


def test_plot_gradient_by_distance_draws_one_line_per_model():
    import matplotlib

    matplotlib.use("Agg")
    from helpers.analysis.attribution import DistanceProfile
    from helpers.viz.gradients import plot_gradient_by_distance

    profiles = {"none": DistanceProfile([0, 1, 2], [1.0, 0.9, 0.8], [0.2, 0.15, 0.1], [3, 4, 2]),
                "luong-dot": DistanceProfile([0, 1, 2], [1.0, 0.2, 0.1], [0.6, 0.1, 0.05], [3, 4, 2])}
    ax = plot_gradient_by_distance(profiles, title="t")
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == ["none", "luong-dot"]
    assert list(lines[1].get_ydata()) == [0.6, 0.1, 0.05]
