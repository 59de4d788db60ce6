"""Benchmarks (not tests): teacher-forced training throughput of the vectorised Luong decoder.

``measure_train_speedup`` times training steps (forward + backward + Adam step) of the same Luong
model on the same batch, once through the vectorised teacher-forced path (``model(...)``: one RNN call
over all target steps, one batched Eq. (9-37)-(9-39) computation) and once through the step loop
(``model.forward_stepwise(...)``: one ``step`` per target position). The two are measured pair by pair,
alternating, in one run; the medians of the repeats give the ratio.

Both paths share the costs that cannot be vectorised over time (the encoder RNN, the recurrence of
the decoder RNN, whose CPU backward runs step by step inside torch, the Adam step), so the whole-step
ratio is bounded by them (Amdahl). ``head_speedup`` isolates what the vectorisation changes: steps
①-③ of Fig. 9-25 plus the output layer W_s, forward + backward, for all t at once vs one t at a time.
"""

from __future__ import annotations

import copy
import statistics
import time

import torch
from torch import nn

__all__ = ["measure_train_speedup"]


def _train_steps(model, opt, fn, src, src_lens, tgt_in, tgt_out, steps: int) -> float:
    loss_fn = nn.CrossEntropyLoss(ignore_index=0)
    t0 = time.perf_counter()
    for _ in range(steps):
        opt.zero_grad(set_to_none=True)
        logits, _ = fn(src, src_lens, tgt_in)  # [B, T, V]
        loss = loss_fn(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1))
        loss.backward()
        opt.step()
    return time.perf_counter() - t0


def measure_train_speedup(repeats: int = 7, batch: int = 64, src_len: int = 12, tgt_len: int = 12,
                          steps: int = 5, variant: str = "luong-general", src_vocab: int = 400,
                          tgt_vocab: int = 500, emb_size: int = 64, hidden_size: int = 128,
                          rnn: str = "gru", warmup: int = 2, seed: int = 0, threads: int | None = None) -> dict:
    """Median target tokens/s of vectorised vs step-loop Luong training; returns a dict with the ratio.

    Keys: vectorised_tokens_per_s, loop_tokens_per_s, speedup (= vectorised / loop), and the settings.
    Source lengths vary between src_len // 2 and src_len (padding as in a real batch). ``threads``
    sets torch's intra-op threads for the measurement only (restored afterwards); None keeps them.
    """
    before = torch.get_num_threads()
    if threads:
        torch.set_num_threads(threads)
    try:
        return _measure(repeats, batch, src_len, tgt_len, steps, variant, src_vocab, tgt_vocab, emb_size,
                        hidden_size, rnn, warmup, seed)
    finally:
        torch.set_num_threads(before)


def _head_time(decoder, state, h, steps: int, vectorised: bool) -> float:
    """Steps ①-③ + W_s, forward + backward, for h [B, T, H]: all t at once or one t at a time."""
    t0 = time.perf_counter()
    for _ in range(steps):
        if vectorised:
            logits = decoder.attend(h, state)[0]  # [B, T, V]
        else:
            logits = torch.stack([decoder.attend(h[:, t], state)[0] for t in range(h.shape[1])], 1)
        logits.logsumexp(-1).mean().backward()
    return time.perf_counter() - t0


def _measure(repeats, batch, src_len, tgt_len, steps, variant, src_vocab, tgt_vocab, emb_size,
             hidden_size, rnn, warmup, seed) -> dict:
    from .seq2seq import Seq2Seq

    gen = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    model_vec = Seq2Seq(variant, src_vocab, tgt_vocab, emb_size=emb_size, hidden_size=hidden_size, rnn=rnn)
    model_loop = copy.deepcopy(model_vec)  # same weights
    opt_vec = torch.optim.Adam(model_vec.parameters(), lr=1e-3)
    opt_loop = torch.optim.Adam(model_loop.parameters(), lr=1e-3)

    src = torch.randint(1, src_vocab, (batch, src_len), generator=gen)  # [B, S]
    src_lens = torch.randint(max(1, src_len // 2), src_len + 1, (batch,), generator=gen)  # [B]
    src_lens[0] = src_len
    src = src.masked_fill(torch.arange(src_len)[None, :] >= src_lens[:, None], 0)
    tgt = torch.randint(1, tgt_vocab, (batch, tgt_len + 1), generator=gen)  # [B, T + 1]
    tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]  # [B, T] each

    args = (src, src_lens, tgt_in, tgt_out)
    _train_steps(model_vec, opt_vec, model_vec, *args, warmup)
    _train_steps(model_loop, opt_loop, model_loop.forward_stepwise, *args, warmup)
    t_vec, t_loop = [], []
    for r in range(repeats):  # pair by pair, alternating which goes first
        pair = [("vec", model_vec, opt_vec, model_vec), ("loop", model_loop, opt_loop, model_loop.forward_stepwise)]
        for name, model, opt, fn in (pair if r % 2 == 0 else pair[::-1]):
            dt = _train_steps(model, opt, fn, *args, steps)
            (t_vec if name == "vec" else t_loop).append(dt)

    # the part the vectorisation changes, on the same model and encoder outputs
    state = model_vec.start(src, src_lens)
    state.encoder_outputs = state.encoder_outputs.detach()
    h = torch.randn(batch, tgt_len, hidden_size, requires_grad=True)  # [B, T, H] stands in for h_t
    h_vec, h_loop = [], []
    for _ in range(repeats):
        h_vec.append(_head_time(model_vec.decoder, state, h, steps, True))
        h_loop.append(_head_time(model_vec.decoder, state, h, steps, False))

    tokens = batch * tgt_len * steps
    vec = tokens / statistics.median(t_vec)
    loop = tokens / statistics.median(t_loop)
    return {
        "vectorised_tokens_per_s": vec, "loop_tokens_per_s": loop, "speedup": vec / loop,
        "head_speedup": statistics.median(h_loop) / statistics.median(h_vec),
        "variant": variant, "batch": batch, "src_len": src_len, "tgt_len": tgt_len, "repeats": repeats,
        "steps_per_repeat": steps, "hidden_size": hidden_size, "emb_size": emb_size, "rnn": rnn,
        "threads": torch.get_num_threads(),
    }
