"""Tests for helpers.seq2seq and helpers.decoders: the encoder, the three decoders, the step API."""

import json

import pytest
import torch

from helpers.decoders import DecoderState
from helpers.runtime.errors import HelpersError, ShapeError
from helpers.seq2seq import NO_ATTENTION, VARIANTS, Encoder, Seq2Seq

V_SRC, V_TGT = 13, 11
ATTN_VARIANTS = [v for v in VARIANTS if v not in NO_ATTENTION]
PAD, BOS, EOS = 0, 1, 2


@pytest.fixture(autouse=True)
def one_thread():
    """Tiny models run fastest (and stay fast when other processes share the 2 cores) on one thread."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def make_model(variant="luong-general", seed=0, **kw):
    torch.manual_seed(seed)
    kw = {"emb_size": 8, "hidden_size": 12, **kw}
    return Seq2Seq(variant, V_SRC, V_TGT, **kw).eval()


def batch(seed=0, B=3, S=5, T=4):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(3, V_SRC, (B, S), generator=g)  # [B, S]
    src_lens = torch.tensor([S, 3, 1][:B])  # [B]
    src = src.masked_fill(torch.arange(S)[None, :] >= src_lens[:, None], PAD)
    tgt_in = torch.randint(3, V_TGT, (B, T), generator=g)  # [B, T]
    return src, src_lens, tgt_in


def step_by_hand(model, src, src_lens, tgt_in):
    """The decoding loop written out: start once, then one step per target token."""
    state = model.start(src, src_lens)
    logits, attn = [], []
    for t in range(tgt_in.shape[1]):
        lo, a, state = model.step(tgt_in[:, t], state)
        logits.append(lo)
        attn.append(a)
    return torch.stack(logits, 1), (None if attn[0] is None else torch.stack(attn, 1))


ALL_CONFIGS = [(v, {}) for v in VARIANTS] + [("luong-general", {"input_feeding": True})]
RNN_CONFIGS = [{"rnn": r, "bidirectional": b, "num_layers": n}
               for r in ("gru", "lstm") for b in (False, True) for n in (1, 2)]


# ------------------------------------------------------------------ shapes
@pytest.mark.parametrize("variant,kw", ALL_CONFIGS)
def test_forward_returns_logits_and_attention_shapes(variant, kw):
    src, src_lens, tgt_in = batch()
    logits, attn = make_model(variant, **kw)(src, src_lens, tgt_in)
    assert logits.shape == (3, 4, V_TGT)
    assert (attn is None) == (variant in ("none", "rnnencdec"))
    if attn is not None:
        assert attn.shape == (3, 4, 5)


@pytest.mark.parametrize("rnn_kw", RNN_CONFIGS)
def test_encoder_shapes_for_gru_lstm_uni_and_bidirectional(rnn_kw):
    enc = Encoder(V_SRC, 8, 12, **rnn_kw)
    src, src_lens, _ = batch()
    out, state, mask = enc(src, src_lens)
    h = state[0] if rnn_kw["rnn"] == "lstm" else state
    assert out.shape == (3, 5, 12) and h.shape == (rnn_kw["num_layers"], 3, 12)
    assert mask.tolist() == [[True] * 5, [True] * 3 + [False] * 2, [True] + [False] * 4]


@pytest.mark.parametrize("rnn_kw", RNN_CONFIGS)
def test_encoder_outputs_are_zero_at_padding(rnn_kw):
    src, src_lens, _ = batch()
    out, _, _ = Encoder(V_SRC, 8, 12, **rnn_kw)(src, src_lens)
    assert out[1, 3:].abs().max().item() == 0.0 and out[2, 1:].abs().max().item() == 0.0


# ------------------------------------------------------------------ masks and padding invariance
@pytest.mark.parametrize("variant,kw", [c for c in ALL_CONFIGS if c[0] not in ("none", "rnnencdec")])
def test_attention_weights_sum_to_one_and_skip_padding(variant, kw):
    src, src_lens, tgt_in = batch()
    _, attn = make_model(variant, **kw)(src, src_lens, tgt_in)
    assert torch.allclose(attn.sum(-1), torch.ones(3, 4), atol=1e-6)
    assert attn[1, :, 3:].abs().max().item() == 0.0 and attn[2, :, 1:].abs().max().item() == 0.0


@pytest.mark.parametrize("variant,kw", ALL_CONFIGS + [("luong-dot", k) for k in RNN_CONFIGS])
def test_extra_padding_does_not_change_the_outputs(variant, kw):
    model = make_model(variant, **kw)
    src, src_lens, tgt_in = batch()
    padded = torch.cat([src, torch.zeros(3, 4, dtype=torch.long)], dim=1)  # 4 more PAD columns
    logits, attn = model(src, src_lens, tgt_in)
    logits_p, attn_p = model(padded, src_lens, tgt_in)
    assert torch.allclose(logits, logits_p, atol=1e-6)
    if attn is not None:
        assert torch.allclose(attn, attn_p[:, :, :5], atol=1e-6) and attn_p[:, :, 5:].abs().max().item() == 0.0


@pytest.mark.parametrize("variant,kw", ALL_CONFIGS + [("bahdanau", {"rnn": "lstm", "bidirectional": True})])
def test_a_sentence_gives_the_same_output_alone_and_in_a_padded_batch(variant, kw):
    model = make_model(variant, **kw)
    src, src_lens, tgt_in = batch()
    alone, _ = model(src[2:, :1], src_lens[2:], tgt_in[2:])  # the 1-token sentence without padding
    in_batch, _ = model(src, src_lens, tgt_in)
    assert torch.allclose(alone[0], in_batch[2], atol=1e-6)


# ------------------------------------------------------------------ vectorised == step by step
@pytest.mark.parametrize("variant", ["luong-dot", "luong-general", "luong-concat"])
@pytest.mark.parametrize("rnn_kw", [{}, {"rnn": "lstm"}, {"bidirectional": True, "num_layers": 2}])
def test_vectorised_luong_equals_the_step_loop(variant, rnn_kw):
    model = make_model(variant, **rnn_kw)
    src, src_lens, tgt_in = batch(T=6)
    logits, attn = model(src, src_lens, tgt_in)  # one batched computation for all t
    logits_s, attn_s = step_by_hand(model, src, src_lens, tgt_in)
    assert (logits - logits_s).abs().max().item() < 1e-6
    assert (attn - attn_s).abs().max().item() < 1e-6


@pytest.mark.parametrize("variant,kw", ALL_CONFIGS)
def test_step_api_gives_the_same_logits_as_forward(variant, kw):
    model = make_model(variant, **kw)
    src, src_lens, tgt_in = batch()
    logits, _ = model(src, src_lens, tgt_in)
    logits_s, _ = step_by_hand(model, src, src_lens, tgt_in)
    assert (logits - logits_s).abs().max().item() < 1e-6


def test_forward_stepwise_matches_forward():
    model = make_model("luong-concat")
    src, src_lens, tgt_in = batch()
    assert torch.allclose(model(src, src_lens, tgt_in)[0], model.forward_stepwise(src, src_lens, tgt_in)[0],
                          atol=1e-6)


@pytest.mark.parametrize("variant,kw", ALL_CONFIGS + [("luong-dot", {"rnn": "lstm", "num_layers": 2})])
def test_state_index_select_picks_rows_for_beam_search(variant, kw):
    model = make_model(variant, **kw)
    src, src_lens, tgt_in = batch()
    state = model.start(src, src_lens)
    _, _, state = model.step(tgt_in[:, 0], state)
    rows = torch.tensor([2, 0, 2])
    picked = state.index_select(rows)
    logits_picked, _, _ = model.step(tgt_in[rows, 1], picked)
    logits_all, _, _ = model.step(tgt_in[:, 1], state)
    assert torch.allclose(logits_picked, logits_all[rows], atol=1e-6)


def test_step_does_not_modify_the_state_it_gets():
    model = make_model("luong-general", input_feeding=True)
    src, src_lens, tgt_in = batch()
    state = model.start(src, src_lens)
    hidden, h_tilde = state.hidden.clone(), state.attn_vector.clone()
    model.step(tgt_in[:, 0], state)
    assert torch.equal(state.hidden, hidden) and torch.equal(state.attn_vector, h_tilde)


def test_start_returns_a_decoder_state_with_documented_shapes():
    model = make_model("luong-general", input_feeding=True)
    src, src_lens, _ = batch()
    state = model.start(src, src_lens)
    assert isinstance(state, DecoderState)
    assert state.encoder_outputs.shape == (3, 5, 12) and state.src_mask.shape == (3, 5)
    assert state.hidden.shape == (1, 3, 12) and state.attn_vector.shape == (3, 12)


def test_step_returns_b_v_logits_and_b_s_weights():
    model = make_model("bahdanau")
    src, src_lens, _ = batch()
    logits, attn, _ = model.step(torch.full((3,), BOS), model.start(src, src_lens))
    assert logits.shape == (3, V_TGT) and attn.shape == (3, 5)


def test_no_attention_step_returns_none_weights():
    model = make_model("none")
    src, src_lens, _ = batch()
    _, attn, _ = model.step(torch.full((3,), BOS), model.start(src, src_lens))
    assert attn is None


def test_the_two_baselines_are_the_no_attention_variants():
    assert NO_ATTENTION == ("none", "rnnencdec")
    assert [make_model(v).has_attention for v in ("none", "rnnencdec", "bahdanau")] == [False, False, True]


@pytest.mark.parametrize("rnn_kw", [{}, {"rnn": "lstm"}, {"bidirectional": True, "num_layers": 2}])
def test_rnnencdec_teacher_forcing_equals_the_step_loop(rnn_kw):
    model = make_model("rnnencdec", **rnn_kw)
    src, src_lens, tgt_in = batch(T=6)
    logits, attn = model(src, src_lens, tgt_in)  # one RNN call over all t
    logits_s, attn_s = step_by_hand(model, src, src_lens, tgt_in)
    assert logits.shape == (3, 6, V_TGT) and attn is None and attn_s is None
    assert (logits - logits_s).abs().max().item() < 1e-6


def test_rnnencdec_state_carries_the_summary_vector_c():
    model = make_model("rnnencdec", bidirectional=True)
    src, src_lens, tgt_in = batch()
    state = model.start(src, src_lens)
    assert state.summary.shape == (3, 12) and torch.equal(state.summary, state.hidden[-1])
    _, _, after = model.step(tgt_in[:, 0], state)
    assert torch.equal(after.summary, state.summary)  # c stays the same at every step
    assert torch.equal(state.index_select(torch.tensor([2, 0])).summary, state.summary[[2, 0]])


def test_rnnencdec_sees_the_source_at_every_step_and_none_only_through_s0():
    """Wipe s_0 after the encoder: `none` has then lost the source, rnnencdec still reads it from c."""
    src, src_lens, tgt_in = batch()
    other = src.clone()
    other[0, 0] = 3 if int(src[0, 0]) != 3 else 4  # a different first word in sentence 0
    for variant, depends in (("none", False), ("rnnencdec", True)):
        model = make_model(variant)
        outs = []
        for s in (src, other):
            state = model.start(s, src_lens)
            state.hidden = torch.zeros_like(state.hidden)  # s_0 = 0
            outs.append(model.step(tgt_in[:, 0], state)[0][0])
        assert (not torch.equal(outs[0], outs[1])) == depends, variant


@pytest.mark.parametrize("variant", ["none", "rnnencdec"])
def test_teacher_forced_loss_falls_on_a_tiny_batch(variant):
    model = make_model(variant).train()
    src, src_lens, tgt_in = batch(T=5)
    tgt_out = torch.roll(tgt_in, -1, dims=1)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    losses = []
    for _ in range(30):
        logits, _ = model(src, src_lens, tgt_in)
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, V_TGT), tgt_out.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0]


def test_rnnencdec_parameters_are_named_after_the_formula_symbols():
    names = {n for n, _ in make_model("rnnencdec").named_parameters()}
    assert {"decoder.W_o.weight", "decoder.W_s.weight", "decoder.rnn.weight_ih_l0"} <= names
    assert dict(make_model("rnnencdec").named_parameters())["decoder.rnn.weight_ih_l0"].shape == (36, 8 + 12)


def test_input_feeding_changes_the_outputs():
    src, src_lens, tgt_in = batch()
    with_if, _ = make_model("luong-general", input_feeding=True)(src, src_lens, tgt_in)
    without, _ = make_model("luong-general")(src, src_lens, tgt_in)
    assert with_if.shape == without.shape and not torch.allclose(with_if, without)


def test_no_attention_decoder_starts_from_the_encoder_last_state():
    model = make_model("none")
    src, src_lens, _ = batch()
    _, enc_state, _ = model.encoder(src, src_lens)
    assert torch.equal(model.start(src, src_lens).hidden, enc_state)


def test_unidirectional_encoder_last_state_is_the_output_at_the_last_real_token():
    enc = Encoder(V_SRC, 8, 12)
    src, src_lens, _ = batch()
    out, h, _ = enc(src, src_lens)
    last = torch.stack([out[i, int(n) - 1] for i, n in enumerate(src_lens)])  # [B, H]
    assert torch.allclose(h[-1], last, atol=1e-6)


# ------------------------------------------------------------------ names, config, determinism
def test_parameters_are_named_after_formula_symbols():
    names = {n for n, _ in make_model("luong-concat").named_parameters()}
    assert {"decoder.W_c.weight", "decoder.W_s.weight", "decoder.attention.score.W_a",
            "decoder.attention.score.v_a"} <= names
    bahdanau = {n for n, _ in make_model("bahdanau").named_parameters()}
    assert {"decoder.attention.score.W_q", "decoder.attention.score.W_k", "decoder.attention.score.v_a"} <= bahdanau


def test_config_is_json_and_rebuilds_the_same_model():
    model = make_model("luong-general", rnn="lstm", bidirectional=True, input_feeding=True)
    config = json.loads(json.dumps(model.config))
    twin = Seq2Seq.from_config(config).eval()
    twin.load_state_dict(model.state_dict())
    src, src_lens, tgt_in = batch()
    assert torch.equal(model(src, src_lens, tgt_in)[0], twin(src, src_lens, tgt_in)[0])


def test_from_config_rejects_unknown_keys():
    with pytest.raises(HelpersError, match="unknown config keys"):
        Seq2Seq.from_config({"variant": "none", "src_vocab_size": 5, "tgt_vocab_size": 5, "colour": "red"})


def test_same_seed_gives_the_same_numbers():
    src, src_lens, tgt_in = batch()
    a, _ = make_model("bahdanau", seed=7)(src, src_lens, tgt_in)
    b, _ = make_model("bahdanau", seed=7)(src, src_lens, tgt_in)
    assert torch.equal(a, b)


# ------------------------------------------------------------------ bad input
def test_unknown_variant_is_a_helpers_error():
    with pytest.raises(HelpersError, match="unknown variant"):
        Seq2Seq("luong-cosine", 5, 5)


def test_input_feeding_outside_luong_is_a_helpers_error():
    with pytest.raises(HelpersError, match="input feeding"):
        Seq2Seq("bahdanau", 5, 5, input_feeding=True)


def test_source_without_batch_dim_raises_shape_error():
    src, src_lens, tgt_in = batch()
    with pytest.raises(ShapeError, match="形状"):
        make_model()(src[0], src_lens, tgt_in)


def test_token_id_out_of_range_is_a_helpers_error():
    src, src_lens, tgt_in = batch()
    with pytest.raises(HelpersError, match="out of range"):
        make_model()(src, src_lens, tgt_in + V_TGT)


def test_source_length_longer_than_the_tensor_is_a_helpers_error():
    src, src_lens, tgt_in = batch()
    with pytest.raises(HelpersError, match="inconsistent lengths"):
        make_model()(src, torch.tensor([6, 3, 1]), tgt_in)


def test_zero_source_length_is_a_helpers_error():
    src, src_lens, tgt_in = batch()
    with pytest.raises(HelpersError, match="inconsistent lengths"):
        make_model()(src, torch.tensor([5, 0, 1]), tgt_in)


def test_src_lens_of_wrong_size_raises_shape_error():
    src, _, tgt_in = batch()
    with pytest.raises(ShapeError, match="B=3"):
        make_model()(src, torch.tensor([5, 3]), tgt_in)


def test_target_batch_size_mismatch_raises_shape_error():
    src, src_lens, tgt_in = batch()
    with pytest.raises(ShapeError, match="B=3"):
        make_model()(src, src_lens, tgt_in[:2])


def test_float_token_ids_are_a_helpers_error():
    src, src_lens, tgt_in = batch()
    with pytest.raises(HelpersError, match="integer token ids"):
        make_model()(src.float(), src_lens, tgt_in)


def test_step_with_wrong_batch_size_raises_shape_error():
    model = make_model()
    src, src_lens, _ = batch()
    with pytest.raises(ShapeError, match="B=3"):
        model.step(torch.tensor([BOS, BOS]), model.start(src, src_lens))


# ------------------------------------------------------------------ every variant can learn
def copy_or_reverse_task(n=32, lo=3, hi=6, reverse=True, seed=0):
    """n random sentences over tokens 3..9; target = source (copy) or reversed; BOS/EOS/PAD = 1/2/0."""
    g = torch.Generator().manual_seed(seed)
    lens = torch.randint(lo, hi + 1, (n,), generator=g)
    S = int(lens.max())
    src = torch.zeros(n, S, dtype=torch.long)
    tgt_in = torch.zeros(n, S + 1, dtype=torch.long)
    tgt_out = torch.zeros(n, S + 1, dtype=torch.long)
    for i, L in enumerate(lens.tolist()):
        seq = torch.randint(3, 10, (L,), generator=g)
        out = seq.flip(0) if reverse else seq
        src[i, :L] = seq
        tgt_in[i, 0], tgt_in[i, 1:L + 1] = BOS, out
        tgt_out[i, :L], tgt_out[i, L] = out, EOS
    return src, lens, tgt_in, tgt_out


@pytest.mark.parametrize("variant,kw,task", [
    ("none", {}, {"reverse": False, "lo": 2, "hi": 4}),
    ("bahdanau", {}, {}),
    ("luong-dot", {}, {}),
    ("luong-general", {}, {}),
    ("luong-concat", {}, {}),
    ("luong-general", {"input_feeding": True}, {}),
    ("luong-dot", {"rnn": "lstm", "bidirectional": True}, {}),
])
def test_every_variant_overfits_a_tiny_reverse_task(variant, kw, task):
    torch.manual_seed(0)
    src, lens, tgt_in, tgt_out = copy_or_reverse_task(**task)
    model = Seq2Seq(variant, 10, 10, emb_size=16, hidden_size=32, **kw)
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    loss_fn = torch.nn.CrossEntropyLoss(ignore_index=PAD)
    valid = tgt_out != PAD
    accuracy = 0.0
    for _ in range(300):
        logits, _ = model(src, lens, tgt_in)  # [N, T, 10]
        accuracy = (logits.argmax(-1) == tgt_out)[valid].float().mean().item()
        if accuracy == 1.0:
            break
        loss = loss_fn(logits.reshape(-1, 10), tgt_out.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert accuracy == 1.0


# ------------------------------------------------------------------ training fast paths = the plain ones
@pytest.mark.parametrize("bidirectional", [False, True])
def test_one_layer_gru_encoder_on_the_padded_batch_equals_torch_packed_gru(bidirectional):
    from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

    enc = Encoder(V_SRC, 8, 12, bidirectional=bidirectional)
    src, src_lens, _ = batch(S=6)
    emb = enc.embedding(src)
    packed = pack_padded_sequence(emb, src_lens, batch_first=True, enforce_sorted=False)
    ref_out, ref_state = enc.rnn(packed)
    ref_out, _ = pad_packed_sequence(ref_out, batch_first=True, total_length=6)
    out, state = enc._padded_gru(emb, src_lens, src_lens[:, None] > torch.arange(6)[None, :])
    assert (out - ref_out).abs().max().item() < 1e-6 and (state - ref_state).abs().max().item() < 1e-6
    grads = torch.autograd.grad((out ** 2).sum() + state.sum(), list(enc.rnn.parameters()))
    ref_grads = torch.autograd.grad((ref_out ** 2).sum() + ref_state.sum(), list(enc.rnn.parameters()))
    assert max((a - b).abs().max().item() for a, b in zip(grads, ref_grads)) < 1e-5


@pytest.mark.parametrize("variant,kw", [("bahdanau", {}), ("bahdanau", {"rnn": "lstm"}),
                                        ("bahdanau", {"num_layers": 2, "bidirectional": True}),
                                        ("luong-general", {"input_feeding": True, "rnn": "lstm"}),
                                        ("luong-concat", {"input_feeding": True, "num_layers": 2})])
def test_fast_teacher_forcing_equals_the_step_loop_in_values_and_gradients(variant, kw):
    model = make_model(variant, **kw)
    src, src_lens, tgt_in = batch(T=6)
    logits, attn = model(src, src_lens, tgt_in)
    logits_s, attn_s = model.forward_stepwise(src, src_lens, tgt_in)
    assert (logits - logits_s).abs().max().item() < 1e-6 and (attn - attn_s).abs().max().item() < 1e-6
    grads = torch.autograd.grad(logits.square().sum(), list(model.parameters()), allow_unused=True)
    grads_s = torch.autograd.grad(logits_s.square().sum(), list(model.parameters()), allow_unused=True)
    assert all((a is None) == (b is None) for a, b in zip(grads, grads_s))
    assert max((a - b).abs().max().item() for a, b in zip(grads, grads_s) if a is not None) < 1e-5
