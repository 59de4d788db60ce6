"""Walk a trained model to one decoding step, for the hand computations of notebooks 05a and 05b.

* ``walk_to_step(model, src_tokens, t)``  run the encoder once, then let the model decode greedily for
  the first t-1 steps; returns the decoder state before step t and the token fed into step t
* ``trace_tensors(model, trace)``  the encoder outputs [1, S, H] of a traced sentence and the queries
  h_t of all its steps stacked [1, T, H] (``helpers.widgets.step.trace_decoding`` records them)

Time steps count from 1: ``walk_to_step(model, tokens, 1)`` returns the fresh state and <bos>.
"""

from __future__ import annotations

import numpy as np
import torch

__all__ = ["source_ids", "trace_tensors", "walk_to_step"]


def source_ids(model, src_tokens) -> torch.Tensor:
    """The source sentence as a batch of one: ids [1, S] in the model's source vocabulary."""
    return torch.tensor([model.src_vocab.encode(list(src_tokens))])


@torch.no_grad()
def walk_to_step(model, src_tokens, t: int):
    """(state, prev): the decoder state before step ``t`` and the previous output token [1] (greedy)."""
    if not isinstance(t, int) or t < 1:
        from helpers.runtime.errors import HelpersError

        raise HelpersError(f"t 是解码步 (decoding step)，从 1 数起，实际 (got) {t!r}。")
    src = source_ids(model, src_tokens)
    state = model.start(src, torch.tensor([src.shape[1]]))  # the encoder runs once
    prev = torch.tensor([model.tgt_vocab.bos_id])  # [1]
    for _ in range(t - 1):  # the model decodes the first t-1 steps itself
        logits, _, state = model.step(prev, state)
        prev = logits.argmax(dim=-1)
    return state, prev


@torch.no_grad()
def trace_tensors(model, trace):
    """(H, Q): encoder outputs [1, S, H] of ``trace.src_tokens`` and the traced queries h_t stacked [1, T, H]."""
    src = source_ids(model, trace.src_tokens)
    H = model.start(src, torch.tensor([src.shape[1]])).encoder_outputs  # [1, S, H]
    Q = torch.tensor(np.stack([st.h_t for st in trace.steps]))[None]  # [1, T, H]
    return H, Q
