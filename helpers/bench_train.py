"""Benchmarks (not tests) of training and decoding: time-to-quality and the batched-decoding speed-up.

* ``measure_time_to_quality``: wall seconds from the start of training the default notebook model
  (``make_model("luong-general")``, ``DEFAULT_SIZES``, batch 64, Adam 3e-3) until its char-BLEU on the
  validation sample first reaches ``target`` (0.90). Validation runs every ``eval_every`` steps and
  its time is included. Goal: ≤ 60 s on 2 CPU cores.
* ``measure_decode_speedup``: greedy decoding of the test split in length-sorted batches versus one
  sentence at a time, same model, same sentences, same run (medians of ``repeats``). Goal: ≥ 10×.

Command line: ``python -m helpers.bench_train [--quick]`` prints both.
"""

from __future__ import annotations

import statistics
import sys
import time

import torch

__all__ = ["main", "measure_decode_speedup", "measure_time_to_quality"]


def measure_time_to_quality(target: float = 0.90, variant: str = "luong-general", eval_every: int = 50,
                            val_size: int = 300, max_seconds: float = 300, seed: int = 0) -> dict:
    """Train the default model until validation char-BLEU ≥ target; returns seconds, steps and the curve."""
    from .corpus import load_corpus
    from .train import make_model, train

    pairs, valid = load_corpus("train"), load_corpus("valid")[:val_size]
    model = make_model(variant, seed=seed)
    hist = train(model, pairs, valid, seconds=max_seconds, eval_every=eval_every, target_bleu=target,
                 patience=None, seed=seed, progress=False, device="cpu")
    reached = hist.stopped == "target"
    return {
        "time_to_quality_s": hist.val_time[-1] if reached else None,
        "steps": hist.steps, "reached": reached, "target": target, "variant": variant,
        "curve": list(zip(hist.val_step, [round(t, 1) for t in hist.val_time], [round(b, 3) for b in hist.val_bleu])),
        "threads": torch.get_num_threads(),
    }


def measure_decode_speedup(model=None, split: str = "test", n: int | None = None, repeats: int = 3,
                           batch_size: int = 256) -> dict:
    """Batched greedy decoding vs one sentence at a time on the same sentences; returns the ratio."""
    from .checkpoint import load_pretrained
    from .corpus import load_corpus
    from .decode import decode_sentences, greedy_decode, pad_sequences

    model = load_pretrained("luong-general") if model is None else model
    pairs = load_corpus(split)[:n] if n else load_corpus(split)
    src_ids = [model.src_vocab.encode(p.src) for p in pairs]
    singles = [pad_sequences([s]) for s in src_ids]
    t_batched, t_single = [], []
    with torch.inference_mode():
        decode_sentences(model, src_ids[:64], batch_size=batch_size)  # warm-up
        for r in range(repeats):
            order = ("batched", "single") if r % 2 == 0 else ("single", "batched")
            for which in order:
                t0 = time.perf_counter()
                if which == "batched":
                    batched = decode_sentences(model, src_ids, batch_size=batch_size).tokens
                    t_batched.append(time.perf_counter() - t0)
                else:
                    single = [greedy_decode(model, s, lens).tokens[0] for s, lens in singles]
                    t_single.append(time.perf_counter() - t0)
    b, s = statistics.median(t_batched), statistics.median(t_single)
    return {"decode_speedup_batched": s / b, "batched_s": b, "single_s": s, "sentences": len(pairs),
            "sentences_per_s_batched": len(pairs) / b, "sentences_per_s_single": len(pairs) / s,
            "same_output": batched == single, "batch_size": batch_size, "repeats": repeats,
            "model": getattr(model, "name", None), "threads": torch.get_num_threads()}


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m helpers.bench_train", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="200 test sentences, 1 repeat; no time-to-quality run")
    p.add_argument("--threads", type=int, default=None, help="torch threads (default: torch's choice)")
    a = p.parse_args(argv)
    if a.threads:
        torch.set_num_threads(a.threads)
    d = measure_decode_speedup(n=200 if a.quick else None, repeats=1 if a.quick else 3)
    print(f"decoding {d['sentences']} {d['model']} test sentences (threads={d['threads']}): "
          f"batched {d['batched_s']:.2f} s, one at a time {d['single_s']:.2f} s -> "
          f"speed-up {d['decode_speedup_batched']:.1f}x (goal >= 10x), same output: {d['same_output']}")
    if not a.quick:
        q = measure_time_to_quality()
        when = f"{q['time_to_quality_s']:.1f} s" if q["reached"] else "not reached"
        print(f"time-to-quality ({q['variant']}, valid char-BLEU >= {q['target']}, threads={q['threads']}): "
              f"{when} after {q['steps']} steps (goal <= 60 s)")
        print("  curve (step, s, BLEU):", q["curve"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
