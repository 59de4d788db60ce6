"""Training throughput of the shipped recipes, before and after the training fast paths, in one run.

    python -m helpers.tools.train_speed [N_BATCHES]     (also part of ``python -m helpers.tools.bench``)

``measure_training_paths()`` trains every model of ``CONFIGS`` (the shipped recipes of
``helpers.tools.pretrain.RECIPES``, and each Luong score with and without input feeding) on the same real
length-bucketed batches of ``train``, one torch thread, along two code paths, alternating batch by batch
so that a busy machine slows both alike:

* **before**: what training ran until the Models 4.0 issue: the encoder's GRU on a PackedSequence
  (``Encoder.padded_gru = False``) and, for the decoders that loop over time (Bahdanau, Luong with input
  feeding), ``helpers.decoders.run_steps``, one ``decoder.step`` per target position;
* **after**: ``model(...)`` as ``helpers.train`` calls it now (``Encoder._padded_gru`` and
  ``helpers.speedups.teacher_forcing``) and Adam from ``helpers.train.make_optimizer`` (fused; before: torch's
  per-tensor loop).

Each path has its own copy of the same initial model and its own Adam; a step is forward, masked loss,
backward, gradient clipping and Adam, as in ``helpers.train``. Reported per model: CPU ms per step,
target tokens per CPU-second (real tokens, padding not counted), the ratio after / before, and the share
of the one-thread GEMM peak: model FLOPs (matrix products of forward + backward, counted by
``torch.utils.flop_counter`` on the *after* path, so both paths are credited with the same useful work)
per CPU-second, divided by the best rate of ``torch.mm`` at the sizes these models multiply (one
thread). CPU time (``time.process_time``) rather than wall time, because the machine may be shared.
"""

from __future__ import annotations

import copy
import random
import time

import torch
from torch import nn

__all__ = ["CONFIGS", "gemm_peak", "measure_training_paths"]

# label -> (variant, changes to the shipped recipe's sizes); the shipped recipes first
CONFIGS = {
    "none": ("none", {}),
    "rnnencdec": ("rnnencdec", {}),
    "bahdanau": ("bahdanau", {}),
    "luong-dot": ("luong-dot", {}),
    "luong-general (input feeding)": ("luong-general", {}),
    "luong-concat": ("luong-concat", {}),
    "luong-dot + input feeding": ("luong-dot", {"input_feeding": True}),
    "luong-general without input feeding": ("luong-general", {"input_feeding": False}),
    "luong-concat + input feeding": ("luong-concat", {"input_feeding": True}),
}
# the matrix products of these models (hidden 128, emb 64, batch 64): one GRU step, the input projection
# of a whole batch, the output layer over all target positions
GEMM_SIZES = ((64, 128, 384), (1024, 64, 384), (1024, 128, 128), (1024, 128, 416))


def gemm_peak(sizes=GEMM_SIZES, repeats: int = 20) -> dict:
    """One-thread GFLOP/s of ``torch.mm`` [m, k] x [k, n] for each size (best of ``repeats``), and the max."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        rates = {}
        for m, k, n in sizes:
            a, b = torch.randn(m, k), torch.randn(k, n)
            a @ b
            best = float("inf")
            for _ in range(repeats):
                t0 = time.perf_counter()
                a @ b
                best = min(best, time.perf_counter() - t0)
            rates[f"{m}x{k}x{n}"] = 2 * m * k * n / best / 1e9
    finally:
        torch.set_num_threads(before)
    return {"by_size": rates, "peak_gflops_per_s": max(rates.values())}


def _data(model, pairs, batch_size: int, n_batches: int, seed: int):
    from helpers.decode import pad_sequences
    from helpers.train import BOS, EOS, make_batches

    src = [model.src_vocab.encode(p.src) for p in pairs]
    tgt = [[BOS] + model.tgt_vocab.encode(p.tgt) + [EOS] for p in pairs]
    lengths = [len(a) * 1000 + len(b) for a, b in zip(src, tgt)]
    batches = make_batches(lengths, batch_size, random.Random(seed))[:n_batches]
    return [(*pad_sequences([src[i] for i in b]), pad_sequences([tgt[i] for i in b])[0]) for b in batches]


def _loop_decoder(model) -> bool:
    return model.variant == "bahdanau" or (model.variant.startswith("luong") and model.config["input_feeding"])


def _step(model, opt, data, before: bool):
    from helpers.decoders import run_steps
    from helpers.seq2seq import Encoder
    from helpers.train import masked_loss

    src, lens, tgt = data
    Encoder.padded_gru = not before
    try:
        if before and _loop_decoder(model):
            state = model.start(src, lens)
            logits, _ = run_steps(model.decoder, tgt[:, :-1], state)
        else:
            logits, _ = model(src, lens, tgt[:, :-1])
        loss = masked_loss(logits, tgt[:, 1:])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
    finally:
        Encoder.padded_gru = True
    return loss.item()


def measure_one(variant: str, sizes: dict, pairs, n_batches: int = 20, batch_size: int = 64, seed: int = 0,
                peak: float | None = None) -> dict:
    """Before / after figures of one model (see the module docstring)."""
    from torch.utils.flop_counter import FlopCounterMode

    from helpers.train import make_model, make_optimizer

    model = make_model(variant, seed=seed, **sizes).train()
    data = _data(model, pairs, batch_size, n_batches, seed)
    tokens = sum(int((t[:, 1:] != 0).sum()) for _, _, t in data)
    probe = copy.deepcopy(model)
    probe_opt = torch.optim.Adam(probe.parameters(), lr=1e-3)
    with FlopCounterMode(display=False) as counter:  # the after path, every batch (also the warm-up)
        for batch in data:
            _step(probe, probe_opt, batch, before=False)
    gflop = counter.get_total_flops() / 1e9
    models = {"before": model, "after": copy.deepcopy(model)}
    opts = {"before": torch.optim.Adam(models["before"].parameters(), lr=1e-3),
            "after": make_optimizer(models["after"].parameters(), 1e-3, "cpu")}
    cpu = {"before": 0.0, "after": 0.0}
    losses = {"before": [], "after": []}
    for k in ("before", "after"):  # warm-up on the first batch (not timed)
        warm = copy.deepcopy(model)
        _step(warm, torch.optim.Adam(warm.parameters(), lr=1e-3), data[0], k == "before")
    for n, batch in enumerate(data):
        for k in (("before", "after") if n % 2 == 0 else ("after", "before")):
            t0 = time.process_time()
            losses[k].append(_step(models[k], opts[k], batch, k == "before"))
            cpu[k] += time.process_time() - t0
    out = {"variant": variant, "sizes": sizes, "batches": len(data), "tokens": tokens,
           "max_loss_difference": max(abs(a - b) for a, b in zip(losses["before"], losses["after"]))}
    for k in ("before", "after"):
        out[f"{k}_ms_per_step"] = 1000 * cpu[k] / len(data)
        out[f"{k}_tokens_per_cpu_s"] = tokens / cpu[k]
        out[f"{k}_gflops_per_s"] = gflop / cpu[k]
        if peak:
            out[f"{k}_share_of_peak"] = gflop / cpu[k] / peak
    out["speedup"] = cpu["before"] / cpu["after"]
    return out


def measure_training_paths(configs: dict | None = None, n_batches: int = 20, seed: int = 0) -> dict:
    """Before / after throughput of every model of ``configs`` (default ``CONFIGS``), one thread."""
    from helpers.corpus import load_corpus
    from helpers.tools.pretrain import RECIPES

    before_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        peak = gemm_peak()
        pairs = load_corpus("train")
        rows = {}
        for label, (variant, change) in (configs or CONFIGS).items():
            sizes = {**RECIPES[variant]["sizes"], **change}
            rows[label] = measure_one(variant, sizes, pairs, n_batches, RECIPES[variant]["batch_size"], seed,
                                      peak["peak_gflops_per_s"])
    finally:
        torch.set_num_threads(before_threads)
    return {"gemm_peak": peak, "models": rows, "threads": 1, "n_batches": n_batches}


def rows_for_table(r: dict) -> list[tuple[str, str, str]]:
    """Markdown rows for ``helpers.tools.bench``: one per model, before | after | ratio."""
    out = []
    for label, m in r["models"].items():
        out.append((f"Training {label}: target tokens per CPU-second, before → after (share of 1-thread GEMM peak)",
                    f"{m['before_tokens_per_cpu_s']:.0f} → {m['after_tokens_per_cpu_s']:.0f} "
                    f"({100 * m.get('before_share_of_peak', 0):.1f} % → {100 * m.get('after_share_of_peak', 0):.1f} %), "
                    f"{m['speedup']:.2f}×", "faster"))
    peak = r["gemm_peak"]
    sizes = ", ".join(f"{k} {v:.0f}" for k, v in peak["by_size"].items())
    out.append(("1-thread torch.mm GFLOP/s at these models' sizes (m×k×n)", sizes, ""))
    return out


if __name__ == "__main__":  # python -m helpers.tools.train_speed [N_BATCHES]: only these rows of the bench
    import sys

    result = measure_training_paths(n_batches=int(sys.argv[1]) if len(sys.argv) > 1 else 20)
    for figure, measured, _ in rows_for_table(result):
        print(f"| {figure} | {measured} |")
