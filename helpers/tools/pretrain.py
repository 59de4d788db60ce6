"""Retrain the shipped models from scratch, reproducibly, on the CPU: ``python -m helpers.tools.pretrain``.

``make pretrained`` runs it. For every name in ``RECIPES`` (or only ``--only NAME``) it

1. builds the model with the recipe's sizes and seed (``helpers.train.make_model``),
2. trains it on ``load_corpus("train")`` for a fixed number of steps (not seconds, so the result does
   not depend on the speed of the machine), on the CPU with a fixed number of torch threads,
3. writes ``helpers/pretrained/<name>.pt`` atomically with its metadata (corpus version, vocabularies,
   config, training record, the command), then
4. evaluates all shipped models (``helpers.tools.evaluate``), stores each model's test numbers in its
   metadata and writes ``helpers/pretrained/metrics.json``.

The same seed, thread count and torch version give the same weights and the same metrics.
All models share one size (``helpers.train.DEFAULT_SIZES`` with hidden size 128: a unidirectional GRU
encoder, no input feeding), so "none" is the section 9.9 baseline of the same size as the attention
models. (Notebooks train live models with the smaller, faster ``DEFAULT_SIZES``.)

Guided alignment (a design decision, recorded here and in every checkpoint's metadata): the four
attention models are trained with ``align_weight`` = 0.5, an extra loss that pulls each attention
row towards the gold *sure* links of the training pairs (Chen et al. 2016, "Guided Alignment
Training for Topic-Aware Neural Machine Translation"). Trained on translation loss alone, the same
models translate as well but their attention drifts to a neighbouring word (with a unidirectional
encoder the key at position s already summarises x_1..x_s, so decoding 是 looks at "a" instead of
"am"; AER 0.17-0.21 on test). The guided models make the heatmaps the chapter talks about (Fig. 9-22)
readable. Notebook 06 trains unguided models live so readers can compare; the gold alignments are
those of the training split only, never test.
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

_COMMON = {"sizes": {**DEFAULT_SIZES, "hidden_size": 128}, "batch_size": 64, "lr": 3e-3, "seed": 0, "steps": 4000, "eval_every": 500,
           "align_weight": 0.0}
ALIGN_WEIGHT = 0.5  # guided alignment for the attention models (see the module docstring)
RECIPES = {
    "none": dict(_COMMON),
    "bahdanau": {**_COMMON, "align_weight": ALIGN_WEIGHT},
    "luong-dot": {**_COMMON, "align_weight": ALIGN_WEIGHT},
    "luong-general": {**_COMMON, "align_weight": ALIGN_WEIGHT},
    "luong-concat": {**_COMMON, "align_weight": ALIGN_WEIGHT},
}


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
                 align_weight=recipe["align_weight"])
    summary = {**hist.summary(), "batch_size": recipe["batch_size"], "lr": recipe["lr"], "threads": THREADS,
               "recipe": {k: v for k, v in recipe.items() if k != "sizes"}}
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
                        "long_char_bleu": row["long"]["char_bleu"]})
        save_checkpoint(model, pretrained_path(name), meta={"metrics": metrics})


def main(argv=None) -> int:
    import argparse

    from helpers.tools.evaluate import METRICS_PATH, format_tables, run_evaluation, write_json

    p = argparse.ArgumentParser(prog="python -m helpers.tools.pretrain",
                                description="从头重新训练预训练模型 (retrain the shipped models from scratch)")
    p.add_argument("--only", choices=list(PRETRAINED_NAMES), action="append", default=None,
                   help="只训练这个模型，可重复 (only this model; repeatable)")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--evaluate-only", action="store_true",
                   help="不训练，只评估并写入指标 (skip training; evaluate and store metrics), e.g. after "
                        "training disjoint --only sets in parallel processes")
    args = p.parse_args(argv)
    torch.set_num_threads(THREADS)
    names = [] if args.evaluate_only else (args.only or list(PRETRAINED_NAMES))
    start = time.perf_counter()
    try:
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
    print(format_tables(record))
    print(f"\npretrain: {time.perf_counter() - start:.0f} s in total; files in "
          f"{PRETRAINED_DIR.parent.name}/{PRETRAINED_DIR.name}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
