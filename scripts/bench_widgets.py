"""Benchmark: latency of the AttentionExplorer (notebooks 07 / 03), control change -> new PNG.

Usage:  .venv/bin/python scripts/bench_widgets.py [--steps 30] [--sentences 10] [--compact]

Prints the median time from a step-slider change to the new PNG (goal <= 100 ms) and from a new
sentence (translate + redraw) to the new PNG (goal <= 300 ms), measured in one run on fresh test
sentences (no translation cache hits). Needs the shipped pretrained models.
"""

from __future__ import annotations

import argparse
import os

from helpers.tools.bench import measure_explorer_latency


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=30, help="step-slider changes to time")
    p.add_argument("--sentences", type=int, default=10, help="new sentences to time")
    p.add_argument("--compact", action="store_true", help="the compact explorer of notebook 03")
    a = p.parse_args(argv)
    r = measure_explorer_latency(n_steps=a.steps, n_sentences=a.sentences, compact=a.compact)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    kind = "compact" if a.compact else "full"
    print(f"AttentionExplorer ({kind}), {os.cpu_count()} CPUs, load average {load:.1f}")
    print(f"  step slider -> PNG : median {r['step_median_ms']:6.1f} ms over {r['n_steps']} changes (goal <= 100 ms)")
    print(f"  new sentence -> PNG: median {r['sentence_median_ms']:6.1f} ms over {r['n_sentences']} sentences "
          f"(goal <= 300 ms)")
    if r["errors"]:
        print("  widget reported:", r["errors"])
    return r


if __name__ == "__main__":
    main()
