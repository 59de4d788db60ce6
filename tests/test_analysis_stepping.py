"""helpers.analysis.stepping: the state it walks to is the state model.step reaches, step by step."""

import numpy as np
import pytest
import torch

import helpers
from helpers.analysis.stepping import source_ids, trace_tensors, walk_to_step
from helpers.runtime.errors import HelpersError
from helpers.widgets.step import trace_decoding

SENTENCE = "i am a student ."


@pytest.fixture(scope="module")
def model():
    return helpers.load_pretrained("luong-general")


def test_step_one_is_the_fresh_state_and_bos(model):
    state, prev = walk_to_step(model, SENTENCE.split(), 1)
    fresh = model.start(source_ids(model, SENTENCE.split()), torch.tensor([5]))
    assert prev.tolist() == [model.tgt_vocab.bos_id]
    assert torch.allclose(state.hidden, fresh.hidden) and torch.allclose(state.encoder_outputs, fresh.encoder_outputs)


def test_walking_to_step_t_feeds_the_greedy_output_of_step_t_minus_1(model):
    out = helpers.translate(model, SENTENCE)
    k = out.tgt_tokens.index("是") + 1  # 是 is written at step k (from 1): step k + 1 is fed 是
    state, prev = walk_to_step(model, out.src_tokens, k + 1)
    assert model.tgt_vocab.itos[prev.item()] == "是"
    logits, alpha, _ = model.step(prev, state)  # step k + 1 is the translation's next word, with its weights
    assert model.tgt_vocab.itos[logits.argmax().item()] == out.tgt_tokens[k]
    assert np.allclose(alpha[0].detach().numpy(), out.attention[k], atol=1e-5)


def test_trace_tensors_stack_the_recorded_queries(model):
    trace = trace_decoding(model, SENTENCE)
    H, Q = trace_tensors(model, trace)
    assert H.shape == (1, len(trace.src_tokens), model.config["hidden_size"])
    assert Q.shape == (1, len(trace.steps), model.config["hidden_size"])
    assert np.allclose(Q[0, 2].numpy(), trace.steps[2].h_t)


def test_a_step_before_one_is_refused(model):
    with pytest.raises(HelpersError, match="从 1 数起"):
        walk_to_step(model, SENTENCE.split(), 0)
