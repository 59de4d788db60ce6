"""Gradient attribution on the source embeddings: which source words does an output word depend on?

For one sentence pair and teacher forcing on the target, the loss at output step t is
ℓ_t = −log p(y_t | y_<t, x). Its gradient with respect to the source word embeddings e_1 … e_S
says how much a small change of each source word would change that loss.

* ``source_gradients(model, src_tokens, tgt_tokens)``  ∂ℓ_t/∂e_s for every step t and source s:
  [T+1, S, E] (the last step is <eos>), with the embeddings e [S, E]
* ``gradient_x_input(grads, emb)``  the attribution a_ts = |(∂ℓ_t/∂e_s) · e_s| (gradient × input,
  one number per step and source word), [T+1, S]
* ``gradient_by_distance(model, pairs)``  over many pairs: the norm ‖∂ℓ_t/∂e_s‖ grouped by the
  distance |s − a(t)| between source word s and the word a(t) that output word t is aligned to
  (its first sure link); returns the mean norm and the mean share (norm / Σ_s norm) per distance

The last one is the bottleneck in gradients: without attention every source word reaches ℓ_t only
through the encoder's final state; with attention the aligned word has a direct path through α_t.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import torch


def source_gradients(model, src_tokens, tgt_tokens) -> tuple[torch.Tensor, torch.Tensor]:
    """(grads [T+1, S, E], emb [S, E]): ∂(−log p(y_t))/∂e_s under teacher forcing on ``tgt_tokens``."""
    from helpers.decode import BOS, EOS

    model.eval()
    src = torch.tensor([model.src_vocab.encode(list(src_tokens))])  # [1, S]
    tgt = [BOS] + model.tgt_vocab.encode(list(tgt_tokens)) + [EOS]
    kept = {}

    def keep(module, args, output):
        kept["emb"] = output  # [1, S, E]

    handle = model.encoder.embedding.register_forward_hook(keep)
    try:
        with torch.enable_grad():
            logits, _ = model(src, torch.tensor([src.shape[1]]), torch.tensor([tgt[:-1]]))  # [1, T+1, V]
            logp = torch.log_softmax(logits[0], -1)  # [T+1, V]
            emb = kept["emb"]
            steps = len(tgt) - 1
            losses = -logp[torch.arange(steps), torch.tensor(tgt[1:])]  # [T+1]: ℓ_t of every step
            # one batched backward pass (row t of the identity picks ℓ_t) instead of T+1 separate ones
            (grads,) = torch.autograd.grad(losses, emb, grad_outputs=torch.eye(steps), is_grads_batched=True)
    finally:
        handle.remove()
    return grads[:, 0].detach(), emb[0].detach()


def gradient_x_input(grads: torch.Tensor, emb: torch.Tensor) -> torch.Tensor:
    """|∂ℓ_t/∂e_s · e_s| for every step t and source s: [T+1, S, E], [S, E] -> [T+1, S]."""
    return (grads * emb[None]).sum(-1).abs()


@dataclass
class DistanceProfile:
    """Gradient norms by source distance |s − a(t)| (0 = the aligned source word)."""

    distances: list[int]
    mean_norm: list[float]  # mean ‖∂ℓ_t/∂e_s‖ at each distance
    mean_share: list[float]  # mean of ‖∂ℓ_t/∂e_s‖ / Σ_s' ‖∂ℓ_t/∂e_s'‖ at each distance
    counts: list[int]  # (t, s) pairs at each distance


def gradient_by_distance(model, pairs, max_distance: int = 8) -> DistanceProfile:
    """Mean gradient norm and share per distance between a source word and the aligned one."""
    norms, shares = defaultdict(list), defaultdict(list)
    for pair in pairs:
        grads, _ = source_gradients(model, pair.src, pair.tgt)
        norm = grads.norm(dim=-1).numpy()[: len(pair.tgt)]  # [T, S], the <eos> step left out
        for j in range(len(pair.tgt)):
            aligned = sorted(i for i, jj in pair.sure if jj == j)
            if not aligned:
                continue
            total = norm[j].sum()
            for s in range(len(pair.src)):
                d = abs(s - aligned[0])
                if d <= max_distance:
                    norms[d].append(norm[j, s])
                    shares[d].append(norm[j, s] / total if total > 0 else 0.0)
    distances = sorted(norms)
    return DistanceProfile(distances, [float(np.mean(norms[d])) for d in distances],
                           [float(np.mean(shares[d])) for d in distances], [len(norms[d]) for d in distances])
