"""Retrain the shipped models from scratch, reproducibly, on the CPU: ``python -m helpers.tools.pretrain``.

``make pretrained`` runs it. For every name in ``RECIPES`` (or only ``--only NAME``) it

1. builds the model with the recipe's sizes and seed (``helpers.train.make_model``),
2. trains it on ``load_corpus("train")`` for the recipe's number of steps (not seconds, so the result
   does not depend on the speed of the machine) with its batch size, learning rate and schedule, on the
   CPU with one torch thread (``THREADS``); ``--jobs 2`` (the default) trains two models at once in
   separate processes, the six split into two groups of about equal cost (``_COST``, measured), which
   changes nothing but the wall time,
3. writes ``helpers/pretrained/<name>.pt`` atomically with its metadata (corpus version, vocabularies,
   config, the recipe including ``align_weight`` and ``bidirectional``, the shipped decoding that
   ``translate`` uses, the command), then
4. evaluates all shipped models (``helpers.tools.evaluate``, two at a time), stores each model's numbers
   in its metadata and writes ``helpers/pretrained/metrics.json`` and ``docs/models.md`` (no wall times in
   metrics.json: the same seed, thread count and torch version give a byte-identical file).

A recipe (``RECIPES[name]``) holds everything: ``sizes`` (``make_model``'s keyword arguments), ``steps``,
``batch_size``, ``lr``, ``lr_schedule``, ``eval_every``, ``seed``, ``align_weight`` and ``decoding``
(``helpers.decode.check_decoding``'s options). To try another recipe without touching the shipped files:
``python -m helpers.tools.pretrain --only bahdanau --steps 2000 --set hidden_size=192 --out-dir /tmp/try``
(``--set`` changes a size, ``--decoding '{"eos_guard": [2, 0.5]}'`` the decoding; the evaluation tables
are printed, and ``metrics.json`` is written into ``--out-dir``).

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

**Corpus 3.0 (train 3-40 tokens, 25 % over 20; long 41-60): steps, sizes and decoding** (issue 22;
2026-12-01, this 2-core machine, shared with other sessions; one thread; scratch runs with ``--out-dir``,
``nice -n 10``; test / long char-BLEU, greedy unless said; the corpus-stories branch before its final
commits for runs 1-4, the merged corpus 3.0 for runs 5-6):

* **Time per step is the binding constraint.** Batches are length-bucketed (``helpers.train.make_batches``:
  pools of 50 batches sorted by length; padding 7.8 % of the tokens, 54 % without bucketing; the same
  seed gives the same batches). ``python scripts/step_timing.py --lengths 8 20 30 40`` on the idle
  machine (ms per step, hidden 128, batch 64, S = T): none 16 / 45 / 82 / 116, bahdanau 31 / 99 / 188 /
  283, luong-dot 18 / 51 / 85 / 124, luong-general 26 / 79 / 133 / 194, luong-concat 21 / 67 / 129 / 239.
  On real corpus-3.0 batches (mean source length 15.9; CPU time per step, idle machine): none 43.5,
  bahdanau 108.5, luong-dot 49.0, luong-general 74.8, luong-concat 72.2 ms, 348 ms for one step of all
  five. Two jobs do not halve that here: two such processes at once ran at 1.7-2.0x their single wall
  time per step (the two vCPUs do not give two cores' worth; a spin loop shows the same), so
  ``make pretrained`` costs about 0.3 s of wall time per step of all five. Hidden 192 costs 1.7x and 256
  2.4x per step (S = 20).
* **Steps: 3,000** for every model (the same budget, so the none-vs-attention comparison is fair).
  3,000 x ~0.31 s + validation + evaluation ≈ 16-18 min, inside the 20-minute limit; 4,000 steps (the
  corpus-2.0 budget) would take ≈ 21-23 min. Short runs already cover the length range well (cosine
  schedule over the run): luong-concat 1,200 steps: test 3-10 / 11-20 / 21-30 / 31-40 = 0.950 / 0.978 /
  0.970 / 0.942, long 41-50 / 51-60 = 0.886 / 0.734 (long 0.871), AER 0.186; luong-dot 1,200: 0.948 /
  0.972 / 0.969 / 0.916, 0.850 / 0.639, AER 0.166; bahdanau 1,000: 0.906 / 0.957 / 0.958 / 0.934, 0.876 /
  0.720, AER 0.247; luong-general 800: 0.877 / 0.957 / 0.957 / 0.888, 0.808 / 0.589, AER 0.236, mean
  max-α 0.80 (the scaled score keeps it from saturating on long sentences too); none 1,200: 0.492 /
  0.478 / 0.472 / 0.432, 0.336 / 0.243. Validation char-BLEU was still rising at the end of each run
  (luong-concat 0.333, 0.759, 0.902, 0.927, 0.965, 0.966 at steps 200-1,200).
* **Hidden 128, not larger**: at equal compute luong-concat with hidden 192 and 700 steps reached valid
  0.945, test 0.922 / 0.968 / 0.956 / 0.934, long 0.848 / 0.732, AER 0.180, against hidden 128 with 1,200
  steps: valid 0.966 and the figures above. More steps beat a wider model within the time limit.
* **Decoding: greedy** (batched; what notebook 05's step-through shows). Measured on the luong-concat of
  1,200 steps (``python scripts/decoding_trials.py DIR``; long errors = fewer clauses / repeated clause /
  early stop / no <eos>, of 500): greedy long 0.871, 177 / 32 / 58 / 19; <eos> guard (2, 0.5) and
  (3, 0.8): identical outputs, because the early stops had already attended to the last words: the
  attention jumps from a middle clause to the final "." and the model stops (their total attention on
  the source was no lower than that of good translations; their output / source length ratio was,
  median 0.61 against 0.85); beam 4, |y|^1: long 0.872, 198 / 11 / 81 / 5; beam 4 GNMT α 0.6: 0.864;
  beam 4 GNMT α 0.6 + coverage β 0.2: 0.888 (41-50 0.897, 51-60 0.768), 139 / 33 / 28 / 5, test buckets
  within ±0.006 of greedy; + the guard: 0.889; GNMT α 1 + β 0.2: 0.875. The coverage penalty is the one
  remedy that helps (+0.017 on long, half the early stops), at 4-8x the decoding time of batched
  greedy; greedy already clears the long target, so the models ship greedy and the penalty stays an
  option (``translate(model, s, beam_size=4, length_penalty=0.6, length_norm="gnmt",
  coverage_penalty=0.2)``).

The shipped run (``make pretrained`` on corpus 3.0, 1 December 2026): 542 s in all, two jobs.
Test char-BLEU by bucket 3-10 / 11-20 / 21-30 / 31-40 and long 41-50 / 51-60: bahdanau 0.973 / 0.979 /
0.968 / 0.932, 0.914 / 0.817; luong-general 0.976 / 0.981 / 0.970 / 0.932, 0.908 / 0.769; none 0.737 /
0.771 / 0.720 / 0.525, 0.389 / 0.318. AER 0.140 (luong-concat) to 0.197 (bahdanau). What the issue asked
and this recipe does not reach: 0.95 in every bucket up to 40 (31-40 is 0.922-0.935), AER <= 0.15 for
every model and <= 0.10 for the best, and the learner sentences (best 25 % exact, 48 % within two
characters, none of the 14 long ones). Not tried for lack of time: more steps with the 20-minute budget
spent differently (none and luong-dot are cheap), beam search with the coverage penalty as the shipped
decoding, a larger vocabulary of constructions for the learner sentences.

**The second baseline, rnnencdec** (Models 4.0, item 3; lecturer review, error 4): Bahdanau et al. 2014
compare RNNsearch with RNNencdec (Cho et al. 2014), whose decoder reads the encoder's summary vector c at
every step and in its output layer; ``none`` (the 9.9 model) sees the source only through s_0. The
recipe is ``none``'s (same bidirectional encoder, hidden 128, steps, seed), so the three-way comparison
none / rnnencdec / attention differs only in the decoder (``helpers.decoders.RNNEncDecDecoder``; 499,808
parameters against none's 409,568, bahdanau 532,704).

**Training speed (Models 4.0, item 5)**, measured 2026-12-02 on this 2-core machine while other sessions
kept it busy (load 5-7), one thread, ``nice -n 5``, 20 real batches per model, CPU time:
``helpers.tools.train_speed.measure_training_paths`` (rows in ``python -m helpers.tools.bench``).

* Where the time went (``torch.profiler`` on 5-10 real steps of each model, and timing of single ops):
  (1) Bahdanau's step loop recomputed the key projection W_k h̄_s [B, S, A] at every target step (the
  largest product of a step, forward and backward) and ran the output layer and W_s once per step;
  (2) every slice of a tensor made outside the time loop (``x[:, t]``) has a backward that fills a zero
  tensor of the whole [B, T, ·] and adds its piece: quadratic in T; (3) the same inside torch's packed
  GRU: the backward of the encoder's PackedSequence GRU fills a zero tensor of the whole packed input
  projection [Σ lengths, 3H] at every time step (under the profiler the largest single item of ``none``'s
  step; measured alone, the bidirectional encoder's forward + backward at S = 35 takes 71 ms packed, 50 ms
  padded); (4) Adam's per-tensor loop, 2.9 ms per step (fused: 0.7 ms). What remains after the changes
  (profiled again, shares of self CPU time under the profiler): ``none`` and the other models' RNNs: the
  recurrence, per step a [64, 128] × [128, 384] product for the GRU's hidden state, forward and backward
  (about a quarter), the gate element-wise ops and the concatenations of their gradients;
  ``luong-concat``: the [B, T, S, A] tensor of the concat score, its broadcast add, tanh and tanh
  backward (about 18 %; element-wise work that the FLOP counter does not count, hence its lower share of
  the GEMM peak); input feeding and Bahdanau: the per-step products against the [B, S, H] keys and values
  and their backward, which adds a [B, S, H] gradient at every step.
* What changed: ``helpers.speedups.teacher_forcing`` (Bahdanau and input-feeding Luong: keys, the GRU's input
  projection of the embeddings and the output layer for all t at once, ``unbind`` instead of slicing),
  ``Encoder._padded_gru`` (a one-layer GRU on the padded batch, each sentence reversed within its length
  for the backward direction), ``helpers.train.make_optimizer`` (torch's fused Adam). The first two give
  the same numbers up to float rounding (tests hold forward, attention and gradients of the two paths
  within 1e-6 / 1e-5; the loss of 20 training steps differed by at most 1.4e-6); fused Adam rounds
  differently, so a model trained now is not the bit-for-bit twin of one trained before; the same seed
  still gives a bit-identical run (checked: 12 steps twice of bahdanau, luong-general, rnnencdec).
* Before → after, target tokens per CPU-second (share of the one-thread GEMM peak, 77-87 GFLOP/s for
  ``torch.mm`` at these sizes): none 17,202 → 18,024 (39.0 → 40.8 %), rnnencdec 12,134 → 12,653,
  bahdanau 5,399 → 8,440 (18.8 → 29.4 %, 1.56x), luong-dot 13,143 → 14,254, luong-general (input feeding)
  7,276 → 8,800 (24.0 → 29.0 %, 1.21x), luong-concat 9,190 → 9,489 (27.5 → 28.4 %). The models that were
  already vectorised over time gain 3-8 %, the two that loop 21-56 %. One step of all six shipped
  models: 578 → 484 CPU-ms in that run (-16 %).
* Not done: a hand-written GRU backward or a fused additive-score kernel (the remaining time is in
  torch's per-step GRU cell and the element-wise tanh of the score), torch.compile (compilation time
  of each new batch shape would eat the gain in a 3,000-step run).

**Corpus 4.0 (Models 4.0; 2 December 2026): 5,000 steps, hidden 128, greedy.** The corpus grew from
625 / 416 to 1,082 / 798 words (English / Chinese) and gained the syllabus's construction families, <unk>
pairs and pairs without final punctuation; with the faster training paths above, 5,000 steps of all six
models took 1,880 s of wall time in ``make pretrained`` (two jobs, the machine shared with other work for
part of the run; train seconds per model in docs/models.md), inside the 60 minutes the issue allows.
Why 5,000 and not more: the run had to leave time in the same working session to re-execute every
notebook on the result; the corpus-3.0 runs showed validation BLEU still rising at the end of each run,
so more steps is the first thing to try next (the issue allows about twice this budget).
Results (``docs/models.md``): test char-BLEU 0.973-0.985 for the attention models (exact 0.879-0.926,
every reference), by bucket 3-10 / 11-20 / 21-30 / 31-40 e.g. luong-concat 0.959 / 0.993 / 0.995 / 0.980,
none 0.648 / 0.801 / 0.677 / 0.557, rnnencdec 0.750 / 0.904 / 0.887 / 0.770; long (41-60) best 0.801
(luong-concat), none 0.408; novel exact best 0.697 (luong-general); AER 0.134 (luong-concat) to 0.237
(bahdanau); an unknown name or noun copied into the reference's place on 95 % (luong-concat; luong-general
62 %). Not reached (issue targets): 0.95 in the 3-10 bucket for bahdanau / luong-dot / luong-general
(0.926-0.948: the short bucket now holds most of the set phrases and personal questions, whose many
correct phrasings the references do not all list), long >= 0.85 and >= 0.40 above none (0.801, +0.393),
novel >= 80 % exact, AER <= 0.15 for every model and <= 0.12 for the best, and above all the learner
sentences: best 30 % exact and 48 % within two characters, none of the 20 long ones (the long ones
collapse into repeated or invented clauses: the corpus's stories are not the sentences a student writes).

The figures of the shipped models on the current corpus are in ``metrics.json``, ``docs/models.md``
and the README.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import torch

from helpers.checkpoint import (
    PRETRAINED_DIR,
    PRETRAINED_NAMES,
    load_checkpoint,
    pretrained_path,
    save_checkpoint,
)
from helpers.decode import GREEDY, check_decoding
from helpers.runtime.errors import HelpersError
from helpers.train import DEFAULT_SIZES, make_model, train

__all__ = ["RECIPES", "THREADS", "main", "pretrain_one", "recipe_with"]

THREADS = 1  # fixed, so the numbers do not depend on the machine's core count

_SIZES = {**DEFAULT_SIZES, "hidden_size": 128, "bidirectional": True}
_COMMON = {"sizes": _SIZES, "steps": 5000, "batch_size": 64, "lr": 3e-3, "lr_schedule": "cosine", "seed": 0,
           "eval_every": 500, "align_weight": 0.0, "decoding": dict(GREEDY)}
RECIPES = {
    "none": dict(_COMMON),
    "rnnencdec": dict(_COMMON),  # the second baseline (Cho et al. 2014): same encoder, sizes and steps as none
    "bahdanau": dict(_COMMON),
    "luong-dot": {**_COMMON, "sizes": {**_SIZES, "scaled_score": True}},
    "luong-general": {**_COMMON, "sizes": {**_SIZES, "scaled_score": True, "input_feeding": True}},
    "luong-concat": dict(_COMMON),
}
# CPU time per training step relative to "none" (hidden 128, batch 64, one thread, 20 real batches, after
# the Models 4.0 speed-ups, machine shared: none 49.5 ms, rnnencdec 70.5, bahdanau 105.7, luong-dot 62.6,
# luong-general 101.4 (input feeding), luong-concat 94.0; helpers.tools.train_speed).
# Used only to split the models into two groups of about equal cost (``_groups``).
_COST = {"none": 1.0, "rnnencdec": 1.42, "bahdanau": 2.14, "luong-dot": 1.26, "luong-general": 2.05,
         "luong-concat": 1.90}
_RECIPE_KEYS = set(_COMMON)


def recipe_with(name: str, steps=None, sizes=None, decoding=None, **fields) -> dict:
    """RECIPES[name] with some entries replaced (for experiments); checked, so a typo is an error."""
    if name not in RECIPES:
        raise HelpersError(f"没有这个预训练模型 (unknown pretrained model): {name!r}。可选: {list(RECIPES)}。")
    unknown = sorted(set(fields) - _RECIPE_KEYS)
    if unknown:
        raise HelpersError(f"配方里没有这些键 (unknown recipe keys): {unknown}。可用 (known): {sorted(_RECIPE_KEYS)}。")
    recipe = {**RECIPES[name], **fields}
    if steps is not None:
        recipe["steps"] = int(steps)
    recipe["sizes"] = {**recipe["sizes"], **(sizes or {})}
    recipe["decoding"] = check_decoding(**{**recipe["decoding"], **(decoding or {})})
    return recipe


def _cost(name: str, recipe: dict) -> float:
    """Relative wall time of a recipe: steps x per-step cost (a larger hidden size costs about (H/128)^1.25)."""
    return recipe["steps"] * _COST.get(name, 1.0) * (recipe["sizes"]["hidden_size"] / 128) ** 1.25


def _groups(recipes: dict, jobs: int) -> list[list[str]]:
    """Split the models into ``jobs`` groups of about equal total cost (exact for two groups), slowest first."""
    names = sorted(recipes, key=lambda n: -_cost(n, recipes[n]))
    if jobs == 2 and len(names) <= 12:
        best = None
        for mask in range(1 << (len(names) - 1)):  # the cheapest always in group 0: no mirrored splits
            a = [n for k, n in enumerate(names) if not (mask >> k) & 1]
            b = [n for k, n in enumerate(names) if (mask >> k) & 1]
            span = max(sum(_cost(n, recipes[n]) for n in g) for g in (a, b))
            if best is None or span < best[0]:
                best = (span, [a, b])
        return [g for g in best[1] if g]
    groups: list[list[str]] = [[] for _ in range(min(jobs, len(names)))]
    for n in names:  # longest processing time first
        min(groups, key=lambda g: sum(_cost(m, recipes[m]) for m in g)).append(n)
    return groups


def pretrain_one(name: str, recipe: dict | None = None, out_dir=None, progress: bool = True) -> dict:
    """Train one model from its recipe (default ``RECIPES[name]``) and write ``<out_dir>/<name>.pt``
    (default: the shipped file); returns the training summary."""
    from helpers.corpus import load_corpus

    recipe = recipe_with(name) if recipe is None else recipe
    model = make_model(name, seed=recipe["seed"], **recipe["sizes"])
    hist = train(model, load_corpus("train"), load_corpus("valid"), steps=recipe["steps"],
                 batch_size=recipe["batch_size"], lr=recipe["lr"], lr_schedule=recipe["lr_schedule"],
                 seed=recipe["seed"], eval_every=recipe["eval_every"], val_size=300, patience=None, device="cpu",
                 progress=progress, align_weight=recipe["align_weight"], threads=THREADS)
    flat = {**{k: v for k, v in recipe.items() if k not in ("sizes", "decoding")}, **recipe["sizes"]}
    summary = {**hist.summary(), "batch_size": recipe["batch_size"], "lr": recipe["lr"], "threads": THREADS,
               "recipe": flat}
    path = pretrained_path(name) if out_dir is None else Path(out_dir) / f"{name}.pt"
    save_checkpoint(model, path, meta={
        "name": name,
        "train": summary,
        "decoding": recipe["decoding"],
        "metrics": {"valid_char_bleu": hist.best_bleu},
        "command": f"python -m helpers.tools.pretrain --only {name}" if recipe == recipe_with(name)
        else "python -m helpers.tools.pretrain --out-dir ... (an experiment: the recipe is in train.recipe)",
    })
    return summary


def _path(name: str, out_dir) -> Path:
    return pretrained_path(name) if out_dir is None else Path(out_dir) / f"{name}.pt"


def _store_metrics(record: dict, out_dir=None) -> None:
    """Copy each model's evaluation numbers into its checkpoint metadata (atomic rewrite)."""
    for name, row in record["models"].items():
        model = load_checkpoint(_path(name, out_dir))
        metrics = dict(model.meta.get("metrics", {}))
        metrics.update({"test_char_bleu": row["test"]["char_bleu"], "test_word_bleu": row["test"]["word_bleu"],
                        "test_exact_match": row["test"]["exact_match"], "test_aer": row["test"]["aer"],
                        "test_max_alpha": row["test"]["max_alpha"], "test_entropy": row["test"]["entropy"],
                        "novel_char_bleu": row["novel"]["char_bleu"], "novel_exact_match": row["novel"]["exact_match"],
                        "long_char_bleu": row["long"]["char_bleu"]})
        save_checkpoint(model, _path(name, out_dir), meta={"metrics": metrics})


def _train_group(job) -> list[tuple[str, dict, float]]:
    """Worker: train the models of one group in turn; prints a line as each one finishes."""
    names, recipes, out_dir = job
    torch.set_num_threads(THREADS)
    done = []
    for name in names:
        t0 = time.perf_counter()
        s = pretrain_one(name, recipes[name], out_dir, progress=False)
        done.append((name, s, time.perf_counter() - t0))
        print(f"{name}: {s['steps']} steps in {done[-1][2]:.0f} s, best valid char-BLEU {s['best_bleu']:.3f} "
              f"(step {s['best_step']})", flush=True)
    return done


def _evaluate_one(job) -> tuple[str, dict]:
    from helpers.tools.evaluate import run_evaluation

    name, out_dir = job
    torch.set_num_threads(THREADS)
    return name, run_evaluation([name], directory=out_dir)["models"][name]


def _evaluate(names, out_dir, jobs: int) -> dict:
    """The metrics record of ``names`` (files in ``out_dir`` or the shipped ones), ``jobs`` models at a time."""
    import multiprocessing as mp

    from helpers.tools.evaluate import run_evaluation

    record = run_evaluation([], directory=out_dir)  # the header: corpus version, buckets
    if jobs > 1 and len(names) > 1:
        with mp.get_context("spawn").Pool(min(jobs, len(names))) as pool:
            rows = dict(pool.map(_evaluate_one, [(n, out_dir) for n in names]))
    else:
        rows = dict(_evaluate_one((n, out_dir)) for n in names)
    record["models"] = {n: rows[n] for n in PRETRAINED_NAMES if n in rows}
    return record


def _key_value(text: str) -> tuple[str, object]:
    key, sep, value = text.partition("=")
    if not sep:
        raise HelpersError(f"--set 需要 KEY=VALUE (expected KEY=VALUE)，实际 (got) {text!r}。例如 --set hidden_size=192。")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def main(argv=None) -> int:
    import argparse
    import os

    from helpers.tools.evaluate import METRICS_PATH, format_tables, write_doc, write_json

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
    p.add_argument("--out-dir", default=None,
                   help="实验用：把模型和 metrics.json 写到这个文件夹 (experiments: write here, not the shipped files)")
    p.add_argument("--steps", type=int, default=None, help="实验用：训练步数 (experiments: steps of every model)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="实验用：改一个尺寸或配方项 (a size, e.g. hidden_size=192, or a recipe key, e.g. lr=0.002)")
    p.add_argument("--decoding", default=None, help='实验用：解码选项 JSON (e.g. \'{"eos_guard": [2, 0.5]}\')')
    args = p.parse_args(argv)
    torch.set_num_threads(THREADS)
    names = [] if args.evaluate_only else (args.only or list(PRETRAINED_NAMES))
    experiment = args.out_dir is not None
    start = time.perf_counter()
    try:
        if not experiment and (args.steps or args.set or args.decoding):
            raise HelpersError("--steps / --set / --decoding 只能和 --out-dir 一起用 (experiments need --out-dir)："
                               "发布的模型只按 RECIPES 训练 (the shipped models follow RECIPES)。")
        if experiment:
            Path(args.out_dir).mkdir(parents=True, exist_ok=True)
        sets = dict(_key_value(x) for x in args.set)
        decoding = json.loads(args.decoding) if args.decoding else None
        recipes = {}
        for name in names:
            fields = {k: v for k, v in sets.items() if k in _RECIPE_KEYS}
            sizes = {k: v for k, v in sets.items() if k not in _RECIPE_KEYS}
            recipes[name] = recipe_with(name, steps=args.steps, sizes=sizes, decoding=decoding, **fields)
        if args.jobs > 1 and len(names) > 1:
            import multiprocessing as mp

            groups = _groups(recipes, args.jobs)
            print("groups (one process each):", " | ".join(", ".join(g) for g in groups), flush=True)
            with mp.get_context("spawn").Pool(len(groups)) as pool:
                pool.map(_train_group, [(g, recipes, args.out_dir) for g in groups])
        else:
            for name in names:
                t0 = time.perf_counter()
                s = pretrain_one(name, recipes[name], args.out_dir, progress=not args.no_progress)
                print(f"{name}: {s['steps']} steps in {time.perf_counter() - t0:.0f} s, "
                      f"best valid char-BLEU {s['best_bleu']:.3f} (step {s['best_step']})", flush=True)
        evaluated = names if experiment else [n for n in PRETRAINED_NAMES if pretrained_path(n).is_file()]
        record = _evaluate(evaluated, args.out_dir, args.jobs)
        _store_metrics(record, args.out_dir)
    except (ValueError, json.JSONDecodeError) as exc:
        print(f"错误 (error): {exc}", file=sys.stderr)
        return 2
    write_json(record, METRICS_PATH if not experiment else Path(args.out_dir) / "metrics.json")
    if not experiment:
        write_doc(record)
    print(format_tables(record))
    where = f"{PRETRAINED_DIR.parent.name}/{PRETRAINED_DIR.name}/" if not experiment else args.out_dir
    print(f"\npretrain: {time.perf_counter() - start:.0f} s in total; files in {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
