"""Retrain the shipped models from scratch, reproducibly, on the CPU: ``python -m helpers.tools.pretrain``.

``make pretrained`` runs it. For every name in ``RECIPES`` (or only ``--only NAME``) it

1. builds the model with the recipe's sizes and seed (``helpers.train.make_model``),
2. trains it on ``load_corpus("train")`` for a fixed number of steps (not seconds, so the result does
   not depend on the speed of the machine), on the CPU with one torch thread (``THREADS``); two models
   train at once in separate processes (``--jobs``), which changes nothing but the wall time,
3. writes ``helpers/pretrained/<name>.pt`` atomically with its metadata (corpus version, vocabularies,
   config, the recipe including ``align_weight`` and ``bidirectional``, the command), then
4. evaluates all shipped models (``helpers.tools.evaluate``), stores each model's numbers in its
   metadata and writes ``helpers/pretrained/metrics.json`` (no wall times in it: the same seed, thread
   count and torch version give a byte-identical file).

**Every shipped model learns its attention from the translation loss alone** (``align_weight`` = 0).
Guided alignment (``helpers.train.train(align_weight=...)``, Chen et al. 2016) stays an option for
experiments (notebook 06 compares the two), never what a notebook presents as learned attention.

The recipe, and why (measured on this project's 2-core machine, corpus 1.1, 2,000 steps, hidden 128,
one thread, ``align_weight`` 0; test char-BLEU / AER / mean max-α; scratch runs, see the closing note
of issue 14):

* **Bidirectional GRU encoder for every model** (Bahdanau et al. 2014 use one; the "none" baseline gets
  the same encoder so the bottleneck comparison is fair). With a unidirectional encoder the key at
  position s summarises x_1..x_s, and the unguided models attended one word late (decoding 是 looked at
  "a", AER 0.17-0.21, first session). Luong et al. 2015 use a stacked unidirectional LSTM; here the
  bidirectional encoder aligned better, so the Luong models use it too.
* **luong-general needs its score scaled by 1/sqrt(H)** (``scaled_score``; GeneralScore(scaled=True),
  an extra beside the book's Eq. 9-40). Unscaled, h_tᵀ W_a h̄_s saturates the softmax at once and on one
  key: after 25 steps 99.7 % of the attention rows of 200 validation sentences peak on the final "."
  (whose forward state summarises the whole sentence), mean max-α 0.996; a saturated softmax passes
  almost no gradient (α(1-α) ≈ 0), and at 1,600 steps 48 % of the rows still sit there (AER 0.53).
  Adam moves each of the H² entries of W_a by about the learning rate per step, so the bilinear score
  can jump by ~lr·H²·|h|·|h̄| in one step. What we tried (test, 2,000 steps): W_a initialised to zeros
  (AER 0.564), to 0.1 × the default (0.658), to the identity (0.397); learning rate 1e-3 (0.320); input
  feeding (0.589); an LSTM (0.175). Dividing the score by sqrt(H) (the scaled dot product's reason,
  Vaswani et al. 2017) fixed it: at 25 steps 21 % of the rows on the final token, mean max-α 0.37, AER
  0.134 at 400 steps; after 2,000 steps char-BLEU 0.992 (unscaled 0.900), AER 0.115, 是 → "am".
  ``python scripts/luong_general_study.py`` reruns the comparison.
* **luong-dot uses the scaled dot score too**: AER 0.216 → 0.075 (char-BLEU 0.969 → 0.992).
* **luong-general has input feeding** (step ④ of Fig. 9-25; the one shipped model with it, so
  notebook 05 runs h̃_t into step t+1 for real): AER 0.133 with it vs 0.115 without, char-BLEU 0.992
  either way. Its teacher-forced training loops over time, so it is the slowest Luong model.
* luong-concat and bahdanau need nothing special (AER 0.096 and 0.144); their attention is the softest
  (mean max-α 0.83 and 0.77).

The figures of the shipped models on the current corpus are in ``metrics.json``, ``docs/models.md``
and the README.
"""

from __future__ import annotations

import sys
import time

import torch

from helpers.checkpoint import (
    PRETRAINED_DIR,
    PRETRAINED_NAMES,
    load_checkpoint,
    pretrained_path,
    save_checkpoint,
)
from helpers.errors import HelpersError
from helpers.train import DEFAULT_SIZES, make_model, train

__all__ = ["RECIPES", "THREADS", "main", "pretrain_one"]

THREADS = 1  # fixed, so the numbers do not depend on the machine's core count

_SIZES = {**DEFAULT_SIZES, "hidden_size": 128, "bidirectional": True}
_COMMON = {"sizes": _SIZES, "batch_size": 64, "lr": 3e-3, "seed": 0, "steps": 4000, "eval_every": 500,
           "align_weight": 0.0}
RECIPES = {
    "none": dict(_COMMON),
    "bahdanau": dict(_COMMON),
    "luong-dot": {**_COMMON, "sizes": {**_SIZES, "scaled_score": True}},
    "luong-general": {**_COMMON, "sizes": {**_SIZES, "scaled_score": True, "input_feeding": True}},
    "luong-concat": dict(_COMMON),
}
# relative wall time per step (measured), so that the slowest models start first with --jobs
_COST = {"bahdanau": 2.5, "luong-general": 1.7}


def pretrain_one(name: str, progress: bool = True) -> dict:
    """Train one shipped model from its recipe and write its file; returns the training summary."""
    from helpers.corpus import load_corpus

    if name not in RECIPES:
        raise HelpersError(f"没有这个预训练模型 (unknown pretrained model): {name!r}。可选: {list(RECIPES)}。")
    recipe = RECIPES[name]
    model = make_model(name, seed=recipe["seed"], **recipe["sizes"])
    hist = train(model, load_corpus("train"), load_corpus("valid"), steps=recipe["steps"],
                 batch_size=recipe["batch_size"], lr=recipe["lr"], seed=recipe["seed"],
                 eval_every=recipe["eval_every"], val_size=300, patience=None, device="cpu", progress=progress,
                 align_weight=recipe["align_weight"], threads=THREADS)
    summary = {**hist.summary(), "batch_size": recipe["batch_size"], "lr": recipe["lr"], "threads": THREADS,
               "recipe": {**{k: v for k, v in recipe.items() if k != "sizes"}, **recipe["sizes"]}}
    save_checkpoint(model, pretrained_path(name), meta={
        "name": name,
        "train": summary,
        "metrics": {"valid_char_bleu": hist.best_bleu},
        "command": f"python -m helpers.tools.pretrain --only {name}",
    })
    return summary


def _store_metrics(record: dict) -> None:
    """Copy each model's evaluation numbers into its checkpoint metadata (atomic rewrite)."""
    for name, row in record["models"].items():
        model = load_checkpoint(pretrained_path(name))
        metrics = dict(model.meta.get("metrics", {}))
        metrics.update({"test_char_bleu": row["test"]["char_bleu"], "test_word_bleu": row["test"]["word_bleu"],
                        "test_exact_match": row["test"]["exact_match"], "test_aer": row["test"]["aer"],
                        "test_max_alpha": row["test"]["max_alpha"], "test_entropy": row["test"]["entropy"],
                        "novel_char_bleu": row["novel"]["char_bleu"], "novel_exact_match": row["novel"]["exact_match"],
                        "long_char_bleu": row["long"]["char_bleu"]})
        save_checkpoint(model, pretrained_path(name), meta={"metrics": metrics})


def _train_in_worker(name: str) -> tuple[str, dict, float]:
    torch.set_num_threads(THREADS)
    t0 = time.perf_counter()
    return name, pretrain_one(name, progress=False), time.perf_counter() - t0


def main(argv=None) -> int:
    import argparse
    import os

    from helpers.tools.evaluate import METRICS_PATH, format_tables, run_evaluation, write_doc, write_json

    p = argparse.ArgumentParser(prog="python -m helpers.tools.pretrain",
                                description="从头重新训练预训练模型 (retrain the shipped models from scratch)")
    p.add_argument("--only", choices=list(PRETRAINED_NAMES), action="append", default=None,
                   help="只训练这个模型，可重复 (only this model; repeatable)")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                   help="同时训练几个模型 (models trained at once, one thread each; default: up to 2). "
                        "The result does not depend on it.")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--evaluate-only", action="store_true",
                   help="不训练，只评估并写入指标 (skip training; evaluate and store metrics)")
    args = p.parse_args(argv)
    torch.set_num_threads(THREADS)
    names = [] if args.evaluate_only else (args.only or list(PRETRAINED_NAMES))
    start = time.perf_counter()
    try:
        if args.jobs > 1 and len(names) > 1:
            import multiprocessing as mp

            # slowest first, so the two workers finish together
            order = sorted(names, key=lambda n: -RECIPES[n]["steps"] * _COST.get(n, 1.0))
            with mp.get_context("spawn").Pool(min(args.jobs, len(names))) as pool:
                for name, s, wall in pool.imap_unordered(_train_in_worker, order):
                    print(f"{name}: {s['steps']} steps in {wall:.0f} s, best valid char-BLEU "
                          f"{s['best_bleu']:.3f} (step {s['best_step']})", flush=True)
        else:
            for name in names:
                t0 = time.perf_counter()
                s = pretrain_one(name, progress=not args.no_progress)
                print(f"{name}: {s['steps']} steps in {time.perf_counter() - t0:.0f} s, "
                      f"best valid char-BLEU {s['best_bleu']:.3f} (step {s['best_step']})", flush=True)
        record = run_evaluation()
        _store_metrics(record)
    except ValueError as exc:
        print(f"错误 (error): {exc}", file=sys.stderr)
        return 2
    write_json(record, METRICS_PATH)
    write_doc(record)
    print(format_tables(record))
    print(f"\npretrain: {time.perf_counter() - start:.0f} s in total; files in "
          f"{PRETRAINED_DIR.parent.name}/{PRETRAINED_DIR.name}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
