"""Compare decodings of trained models: char-BLEU by length bucket, learner sentences, errors on ``long``.

Usage:  python scripts/decoding_trials.py DIR [--models luong-concat bahdanau] [--sets greedy guard beam4 ...]

DIR holds ``<name>.pt`` files (e.g. what ``python -m helpers.tools.pretrain --out-dir DIR`` wrote, or
``helpers/pretrained``). For every model and every decoding set in ``SETS`` it runs
``helpers.tools.evaluate.evaluate_model`` with that decoding and prints one Markdown row: char-BLEU per
bucket (3-10 … 31-40 from test, 41-50 / 51-60 from long), long char-BLEU, learner exact / within two
(all; ≥ 20 tokens), and on ``long`` the sentences with fewer clauses, a repeated clause, an early stop
and no <eos>. This is the measurement behind the ``decoding`` of ``helpers.tools.pretrain.RECIPES``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import torch

SETS = {
    "greedy": {},
    "guard(2,0.5)": {"eos_guard": [2, 0.5]},
    "guard(3,0.8)": {"eos_guard": [3, 0.8]},
    "beam4": {"beam_size": 4, "length_penalty": 1.0},
    "beam4 gnmt0.6": {"beam_size": 4, "length_penalty": 0.6, "length_norm": "gnmt"},
    "beam4 gnmt0.6 cp0.2": {"beam_size": 4, "length_penalty": 0.6, "length_norm": "gnmt", "coverage_penalty": 0.2},
    "beam4 gnmt1 cp0.2": {"beam_size": 4, "length_penalty": 1.0, "length_norm": "gnmt", "coverage_penalty": 0.2},
    "beam4 gnmt0.6 cp0.2 guard": {"beam_size": 4, "length_penalty": 0.6, "length_norm": "gnmt",
                                  "coverage_penalty": 0.2, "eos_guard": [2, 0.5]},
}


def _f(x):
    return "—" if x is None else f"{x:.3f}"


def main(argv=None) -> None:
    from helpers.checkpoint import load_checkpoint
    from helpers.decode import GREEDY, check_decoding
    from helpers.tools.evaluate import BUCKETS, bucket_name, evaluate_model

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dir", type=Path)
    p.add_argument("--models", nargs="+", default=None)
    p.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    a = p.parse_args(argv)
    torch.set_num_threads(1)
    names = a.models or sorted(f.stem for f in a.dir.glob("*.pt"))
    buckets = [bucket_name(*b) for b in BUCKETS]
    print("| model | decoding | " + " | ".join(buckets) + " | long | learner exact / ±2 | ≥20: exact / ±2 "
          "| long: fewer cl. / repeat / early / no eos | s |")
    print("|---|---|" + "---|" * len(buckets) + "---|---|---|---|---|")
    for name in names:
        model = load_checkpoint(a.dir / f"{name}.pt")
        for label in a.sets:
            model.meta = {**model.meta, "decoding": check_decoding(**{**GREEDY, **SETS[label]})}
            t0 = time.perf_counter()
            r = evaluate_model(model)
            e, ln = r["errors"]["long"], r.get("learner") or {}
            print(f"| {name} | {label} | " + " | ".join(_f(r["by_length"][b]["char_bleu"]) for b in buckets) +
                  f" | {_f(r['long']['char_bleu'])} | {_f(ln.get('exact'))} / {_f(ln.get('within_two'))} | "
                  f"{_f(ln.get('long_exact'))} / {_f(ln.get('long_within_two'))} | "
                  f"{e['fewer_clauses']} / {e['repeated_clause']} / {e['early_stop']} / {e['no_eos']} | "
                  f"{time.perf_counter() - t0:.0f} |", flush=True)


if __name__ == "__main__":
    main()
