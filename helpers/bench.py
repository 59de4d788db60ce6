"""One command for every benchmark, side by side in one process: ``python -m helpers.bench``.

    python -m helpers.bench [--quick] [--json PATH]

Prints a Markdown table (machine, date, each figure and its goal) and writes the same figures to JSON.
These are benchmarks, not tests: nothing is asserted. Ratios are measured pair by pair in the same run
(so a busy machine slows both sides alike); times are medians of several runs. ``docs/benchmarks.md``
explains each figure and holds the latest full table.

JSON keys: train_speedup_vectorized_vs_loop, train_speedup_lstm, time_to_quality_s,
decode_speedup_batched, widget_latency_ms_median, widget_translate_ms_median, notebooks_quick_total_s,
train_gflops_per_s, cpu_peak_gflops_per_s, flops_utilisation, peak_rss_mb, plus the machine record.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import sys
import time
from pathlib import Path

import torch

GOALS = {
    "train_speedup_vectorized_vs_loop": "≥ 3×",
    "time_to_quality_s": "≤ 60 s",
    "decode_speedup_batched": "≥ 10×",
    "widget_latency_ms_median": "≤ 100 ms",
    "widget_translate_ms_median": "≤ 300 ms",
}


def machine() -> dict:
    """CPU model, cores, torch threads, versions and the date."""
    model = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": model or platform.machine(), "cores": os.cpu_count(), "torch_threads": torch.get_num_threads(),
            "torch": torch.__version__, "python": platform.python_version(),
            "date": datetime.date.today().isoformat()}


def luong_train_flops(batch: int, src_len: int, tgt_len: int, emb: int, hidden: int, vocab: int) -> float:
    """Model FLOPs of one teacher-forced training step of a 1-layer GRU Luong-general model.

    Forward multiply-adds count 2 FLOPs; backward is taken as 2× forward (the usual estimate).
    GRU per token: 3 gates × (E·H + H·H); attention per target token: W_a (H·H) + scores and
    context (2·S·H); W_c: 2H·H; W_s: H·V.
    """
    gru = 3 * (emb * hidden + hidden * hidden)
    encoder = batch * src_len * gru
    decoder = batch * tgt_len * (gru + hidden * hidden + 2 * src_len * hidden + 2 * hidden * hidden + hidden * vocab)
    forward = 2 * (encoder + decoder)
    return 3 * forward


def matmul_peak_gflops(n: int = 1024, repeats: int = 5) -> float:
    """A practical CPU peak: the best fp32 GEMM rate torch reaches here (all its threads)."""
    a, b = torch.randn(n, n), torch.randn(n, n)
    a @ b
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - t0)
    return 2 * n**3 / best / 1e9


def notebooks_quick(names: list[str] | None) -> dict:
    from .notebooks import execute_notebook, notebook_paths

    times = {}
    for path in notebook_paths(include_solutions=False):
        if names is None or any(n in path.name for n in names):
            t0 = time.perf_counter()
            execute_notebook(path, quick=True)
            times[path.stem] = round(time.perf_counter() - t0, 1)
    return times


def run(quick: bool) -> dict:
    from .bench_train import measure_decode_speedup, measure_time_to_quality
    from .benchmarks import measure_train_speedup
    from .widgets_explorer import measure_explorer_latency

    out: dict = {"machine": machine(), "quick": quick}
    repeats = 3 if quick else 7
    t0 = time.perf_counter()
    gru = measure_train_speedup(repeats=repeats, threads=1)
    lstm = measure_train_speedup(repeats=repeats, threads=1, rnn="lstm")
    out["train_speedup_vectorized_vs_loop"] = gru["speedup"]
    out["train_speedup_lstm"] = lstm["speedup"]
    out["train_tokens_per_s_vectorized"] = gru["vectorised_tokens_per_s"]
    out["train_tokens_per_s_loop"] = gru["loop_tokens_per_s"]
    flops = luong_train_flops(gru["batch"], gru["src_len"], gru["tgt_len"], gru["emb_size"], gru["hidden_size"], 500)
    steps_per_s = gru["vectorised_tokens_per_s"] / (gru["batch"] * gru["tgt_len"])
    out["train_gflops_per_s"] = flops * steps_per_s / 1e9
    before = torch.get_num_threads()
    torch.set_num_threads(1)  # the training figures above use one thread: compare with a one-thread peak
    out["cpu_peak_gflops_per_s"] = matmul_peak_gflops()
    torch.set_num_threads(before)
    out["flops_utilisation"] = out["train_gflops_per_s"] / out["cpu_peak_gflops_per_s"]

    with _threads(1):
        ttq = measure_time_to_quality(max_seconds=120 if quick else 300)
        out["time_to_quality_s"] = ttq["time_to_quality_s"]
        dec = measure_decode_speedup(n=300 if quick else None, repeats=repeats)
    out["decode_speedup_batched"] = dec["decode_speedup_batched"]

    lat = measure_explorer_latency(n_steps=10 if quick else 30, n_sentences=5 if quick else 10)
    out["widget_latency_ms_median"] = lat["step_median_ms"]
    out["widget_translate_ms_median"] = lat["sentence_median_ms"]

    nbs = notebooks_quick(["00_", "04_"] if quick else None)
    out["notebooks_quick_s"] = nbs
    out["notebooks_quick_total_s"] = round(sum(nbs.values()), 1)
    out["notebooks_quick_scope"] = "00, 04 only (--quick)" if quick else "all main notebooks"
    self_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out["peak_rss_mb"] = max(self_kb, kids_kb) / 1024
    out["bench_wall_s"] = time.perf_counter() - t0
    return out


class _threads:
    def __init__(self, n):
        self.n = n

    def __enter__(self):
        self.before = torch.get_num_threads()
        torch.set_num_threads(self.n)

    def __exit__(self, *exc):
        torch.set_num_threads(self.before)


def table(r: dict) -> str:
    m = r["machine"]

    def fmt(value, unit=""):
        if value is None:
            return "not reached"
        return f"{value:.2f}{unit}" if isinstance(value, float) else f"{value}{unit}"

    rows = [
        ("Training speed-up, vectorised vs step-loop Luong (GRU, 1 thread)", fmt(r["train_speedup_vectorized_vs_loop"], "×"),
         GOALS["train_speedup_vectorized_vs_loop"]),
        ("  same, LSTM", fmt(r["train_speedup_lstm"], "×"), ""),
        ("Time to validation char-BLEU ≥ 0.90 (default notebook model, 1 thread)", fmt(r["time_to_quality_s"], " s"),
         GOALS["time_to_quality_s"]),
        ("Batched vs one-by-one greedy decoding", fmt(r["decode_speedup_batched"], "×"), GOALS["decode_speedup_batched"]),
        ("Explorer step slider → new PNG (median)", fmt(r["widget_latency_ms_median"], " ms"),
         GOALS["widget_latency_ms_median"]),
        ("Explorer new sentence → new PNG (median)", fmt(r["widget_translate_ms_median"], " ms"),
         GOALS["widget_translate_ms_median"]),
        (f"Notebooks in quick mode, total ({r['notebooks_quick_scope']})", fmt(r["notebooks_quick_total_s"], " s"),
         "< 60 s each"),
        ("Training throughput (model FLOPs)", fmt(r["train_gflops_per_s"], " GFLOP/s"), ""),
        ("CPU peak, one-thread fp32 GEMM", fmt(r["cpu_peak_gflops_per_s"], " GFLOP/s"), ""),
        ("FLOPs utilisation (training / peak)", f"{100 * r['flops_utilisation']:.1f} %", ""),
        ("Peak RSS", fmt(r["peak_rss_mb"], " MB"), ""),
    ]
    lines = [f"Machine: {m['cpu']}, {m['cores']} cores, torch {m['torch']} ({m['torch_threads']} threads), "
             f"Python {m['python']}, {m['date']}{' — quick run' if r['quick'] else ''}", "",
             "| figure | measured | goal |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m helpers.bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="fewer repeats, a subset of notebooks (< 3 min)")
    p.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = p.parse_args(argv)
    result = run(args.quick)
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
