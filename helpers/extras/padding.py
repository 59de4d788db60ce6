"""Padding in a batch, measured (notebook 05b, extra 1): the mask and the packing, one at a time.

A batch of sentences of different lengths is padded with ``<pad>``. Two things can go wrong, with
different causes and cures: attention gives the padding weight (cure: the mask), and the recurrent
encoder reads the padding into its states (cure: packing, reading each sentence to its true length).
``padding_changes`` batches short sentences with one long one (so they get many ``<pad>``), decodes
them greedily under the four combinations packed / pads read × mask / no mask, and counts the
sentences whose translation differs from the right way (packed + mask).
"""

from __future__ import annotations

from dataclasses import replace

import torch

__all__ = ["COMBINATIONS", "greedy_texts", "padding_changes"]

COMBINATIONS = ("打包 + 掩码", "打包，不加掩码", "读进 <pad> + 掩码", "读进 <pad>，不加掩码")


@torch.no_grad()
def greedy_texts(model, state, steps: int = 25) -> list[str]:
    """Greedy decoding of a whole batch from ``state``: each sentence's translation as one string."""
    vocab = model.tgt_vocab
    prev = torch.full((state.batch_size,), vocab.bos_id)
    done = torch.zeros(state.batch_size, dtype=torch.bool)
    out = [[] for _ in range(state.batch_size)]
    for _ in range(steps):
        logits, _, state = model.step(prev, state)
        prev = logits.argmax(dim=-1)
        done |= prev == vocab.eos_id
        for b in (~done).nonzero()[:, 0].tolist():
            out[b].append(vocab.itos[prev[b].item()])
    return ["".join(o) for o in out]


@torch.no_grad()
def padding_changes(model, shorts, longest) -> tuple[dict, int]:
    """({combination: number of ``shorts`` whose translation differs from packed + mask}, most <pad> added).

    The batch is ``shorts + [longest]``; "读进 <pad>" tells the encoder every sentence is as long as
    the batch, "不加掩码" gives attention a mask of all ones.
    """
    from helpers.decode import pad_sequences

    src, lens = pad_sequences([model.src_vocab.encode(p.src) for p in [*shorts, longest]])  # [B, S], [B]
    packed = model.start(src, lens)
    read_pads = model.start(src, torch.full_like(lens, src.shape[1]))
    states = {COMBINATIONS[0]: packed,
              COMBINATIONS[1]: replace(packed, src_mask=torch.ones_like(packed.src_mask)),
              COMBINATIONS[2]: replace(read_pads, src_mask=packed.src_mask),
              COMBINATIONS[3]: read_pads}
    texts = {k: greedy_texts(model, st)[:-1] for k, st in states.items()}  # drop the long sentence
    right = texts[COMBINATIONS[0]]
    return {k: sum(a != b for a, b in zip(v, right)) for k, v in texts.items()}, int(src.shape[1] - lens.min())
