"""Benchmark: teacher-forced training throughput, vectorised Luong decoder vs the step loop.

Usage:  .venv/bin/python scripts/bench_luong.py [--repeats 7] [--batch 64] [--len 12] [--variant luong-general]
                                               [--rnn gru|lstm] [--threads N]

Prints target tokens/s of both paths (forward + backward + Adam step, same model and batch, measured
pair by pair in one run, medians of the repeats) and their ratio. Goal: >= 3x.
"""

from __future__ import annotations

import argparse

from helpers.tools.bench import measure_train_speedup


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--len", type=int, default=12, help="source and target length")
    p.add_argument("--steps", type=int, default=5, help="training steps per timed repeat")
    p.add_argument("--variant", default="luong-general", choices=["luong-dot", "luong-general", "luong-concat"])
    p.add_argument("--rnn", default="gru", choices=["gru", "lstm"])
    p.add_argument("--threads", type=int, default=None, help="torch threads (default: torch's own)")
    a = p.parse_args(argv)
    r = measure_train_speedup(repeats=a.repeats, batch=a.batch, src_len=a.len, tgt_len=a.len,
                              steps=a.steps, variant=a.variant, rnn=a.rnn, threads=a.threads)
    print(f"{r['variant']} {r['rnn']}  B={r['batch']} S=T={r['tgt_len']} H={r['hidden_size']} "
          f"threads={r['threads']}  (median of {r['repeats']} x {r['steps_per_repeat']} steps)")
    print(f"  vectorised: {r['vectorised_tokens_per_s']:10.0f} target tokens/s")
    print(f"  step loop : {r['loop_tokens_per_s']:10.0f} target tokens/s")
    print(f"  speed-up  : {r['speedup']:.2f}x  (goal >= 3x)")
    print(f"  attention head only (steps 1-3 + W_s, fwd+bwd): {r['head_speedup']:.2f}x")
    return r


if __name__ == "__main__":
    main()
