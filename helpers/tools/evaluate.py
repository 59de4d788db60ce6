"""Evaluation of the shipped models: BLEU, exact match, BLEU by sentence length, alignment error rate.

``python -m helpers.tools.evaluate [--json PATH] [--models NAME ...]`` prints, for every shipped model:

* char-BLEU, word-BLEU and exact match on ``test`` (held-out sentences, the training length range) and on
  ``novel`` (structure + word combinations that train never shows together: what a student meets who
  types a sentence of their own), with each model's shipped decoding (``helpers.decode.shipped_decoding``,
  what ``translate`` uses);
* char-BLEU by source-length bucket: 3-10, 11-20, 21-30, 31-40 tokens from ``test`` and 41-50, 51-60
  from ``long`` (longer than any training sentence) — the information bottleneck of the 9.10 intro:
  without attention BLEU falls as sentences get longer, Bahdanau et al. 2014, Fig. 2;
* a learner's own sentences (``helpers/corpus/data/learner_sentences.json``): exact and within two characters,
  overall and for those of 20 tokens or more; error counts over whole splits (fewer clauses, a repeated
  clause, early stop, no <eos>, invented words): see ``helpers.tools.scoring``;
* AER on ``test`` (Och & Ney 2003): the attention of the model, teacher-forced on the reference
  translation so that target positions match the gold alignment, reduced to links by the arg-max
  source per target token (Luong et al. 2015, §5.4); micro-averaged over the split;
* how soft the attention is on ``test``: mean max-α and mean row entropy (``attention_sharpness``).

It also writes the numbers to ``helpers/pretrained/metrics.json`` (or ``--json PATH``), which the
notebooks show. ``evaluate_model`` does the same for any model carrying its vocabularies.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import torch

from helpers.checkpoint import METRICS_PATH, list_pretrained, load_pretrained
from helpers.decode import decode_sentences, pad_sequences, shipped_decoding
from helpers.tools.models_doc import DOC_PATH, format_tables, write_doc

__all__ = ["BUCKETS", "DOC_PATH", "LONG_BUCKETS", "METRICS_PATH", "TEST_BUCKETS", "attention_sharpness",
           "evaluate_model", "format_tables", "main", "run_evaluation", "teacher_forced_attention", "write_doc",
           "write_json"]

TEST_BUCKETS = ((3, 10), (11, 20), (21, 30), (31, 40))  # from test: the training length range
LONG_BUCKETS = ((41, 50), (51, 60))  # from long: longer than any training sentence
BUCKETS = TEST_BUCKETS + LONG_BUCKETS
ERROR_SPLITS = ("test", "novel", "long")


def bucket_name(lo: int, hi: int) -> str:
    return f"{lo}-{hi}"


@torch.no_grad()
def teacher_forced_attention(model, pairs, batch_size: int = 256) -> list:
    """Attention [len(tgt), len(src)] per pair with the reference fed to the decoder (None: no attention)."""
    model.eval()
    device = next(model.parameters()).device
    out = [None] * len(pairs)
    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i].src))
    for start in range(0, len(order), batch_size):
        idx = order[start: start + batch_size]
        src, lens = pad_sequences([model.src_vocab.encode(pairs[i].src) for i in idx], device=device)
        tgt, _ = pad_sequences([[1] + model.tgt_vocab.encode(pairs[i].tgt) for i in idx], device=device)
        _, attention = model(src, lens, tgt)  # [B, T + 1, S]
        if attention is None:
            return out
        attention = attention.float().cpu().numpy()
        for n, i in enumerate(idx):
            out[i] = attention[n, : len(pairs[i].tgt), : len(pairs[i].src)]
    return out


def _translate_pairs(model, pairs):
    """Token lists of the model's translations (its shipped decoding) and whether each emitted <eos>."""
    result = decode_sentences(model, [model.src_vocab.encode(p.src) for p in pairs], **shipped_decoding(model))
    return [model.tgt_vocab.decode(t) for t in result.tokens], result.finished


def attention_sharpness(attention: list) -> dict:
    """Mean over all target rows of max_s α_ts and of the row entropy -Σ_s α_ts ln α_ts (nats).

    A one-hot grid has max-α 1 and entropy 0; a uniform row over S words has max-α 1/S and entropy ln S.
    """
    import numpy as np

    rows = [a for a in attention if a is not None and a.size]
    if not rows:
        return {"max_alpha": None, "entropy": None}
    peaks = np.concatenate([a.max(axis=1) for a in rows])
    ent = np.concatenate([-(a * np.log(np.clip(a, 1e-12, None))).sum(axis=1) for a in rows])
    return {"max_alpha": float(peaks.mean()), "entropy": float(ent.mean())}


def evaluate_model(model, test=None, long=None, novel=None, learner=None) -> dict:
    """All numbers of the evaluation table for one model (pairs default to the corpus splits, learner
    sentences to ``helpers.tools.scoring.load_learner_sentences()``; ``False`` skips them)."""
    from helpers.corpus import load_corpus
    from helpers.metrics import bleu, corpus_aer, exact_match
    from helpers.tools.copy_eval import copy_scores
    from helpers.tools.scoring import error_counts, learner_scores, load_learner_sentences

    test = load_corpus("test") if test is None else test
    long = load_corpus("long") if long is None else long
    novel = load_corpus("novel") if novel is None else novel
    learner = load_learner_sentences() if learner is None else (learner or None)
    start = time.perf_counter()
    (hyp_test, fin_test), (hyp_long, fin_long) = _translate_pairs(model, test), _translate_pairs(model, long)
    hyp_novel, fin_novel = _translate_pairs(model, novel)
    ref_test = [p.references for p in test]  # every acceptable phrasing (multi-reference BLEU, exact match)
    ref_novel = [p.references for p in novel]
    row = {
        "test": {
            "n": len(test),
            "char_bleu": bleu(hyp_test, ref_test, level="char"),
            "word_bleu": bleu(hyp_test, ref_test, level="word"),
            "exact_match": exact_match(hyp_test, ref_test),
            "aer": None,
        },
        "novel": {"n": len(novel),
                  "char_bleu": bleu(hyp_novel, ref_novel, level="char"),
                  "exact_match": exact_match(hyp_novel, ref_novel)},
        "long": {"n": len(long), "char_bleu": bleu(hyp_long, [p.references for p in long], level="char"),
                 "exact_match": exact_match(hyp_long, [p.references for p in long])},
        "by_length": {},
        "decoding": shipped_decoding(model),
    }
    for buckets, pairs, hyp in ((TEST_BUCKETS, test, hyp_test), (LONG_BUCKETS, long, hyp_long)):
        for lo, hi in buckets:
            hyps = [list(h) for p, h in zip(pairs, hyp) if lo <= len(p.src) <= hi]
            refs = [p.references for p in pairs if lo <= len(p.src) <= hi]
            row["by_length"][bucket_name(lo, hi)] = {"n": len(hyps),
                                                     "char_bleu": bleu(hyps, refs, level="char") if hyps else None}
    row["errors"] = {split: error_counts(hyp, [list(p.tgt) for p in pairs], fin)
                     for split, pairs, hyp, fin in (("test", test, hyp_test, fin_test),
                                                    ("novel", novel, hyp_novel, fin_novel),
                                                    ("long", long, hyp_long, fin_long))}
    if learner:
        row["learner"] = learner_scores(model, learner)
    row["copying"] = copy_scores(model, test)  # an unknown name / noun: does the copy land in its place?
    attention = teacher_forced_attention(model, test)
    row["test"].update(attention_sharpness(attention))
    if attention[0] is not None:
        row["test"]["aer"] = corpus_aer(attention, [p.sure for p in test], [p.possible for p in test])
    row["eval_seconds"] = time.perf_counter() - start  # not written to metrics.json (see write_json)
    return row


def run_evaluation(names=None, directory=None) -> dict:
    """Evaluate the shipped models (or ``<directory>/<name>.pt``); returns the record written to metrics.json.

    names: None = every shipped model; ``[]`` = none (the record's header only).
    """
    from helpers.checkpoint import load_checkpoint
    from helpers.corpus import CORPUS_VERSION

    names = list(names) if names is not None else list_pretrained()
    record = {"corpus_version": CORPUS_VERSION, "generated_by": "python -m helpers.tools.evaluate",
              "buckets": [bucket_name(lo, hi) for lo, hi in BUCKETS],
              "bucket_split": {**{bucket_name(*b): "test" for b in TEST_BUCKETS},
                               **{bucket_name(*b): "long" for b in LONG_BUCKETS}}, "models": {}}
    for name in names:
        model = load_pretrained(name) if directory is None else load_checkpoint(Path(directory) / f"{name}.pt")
        row = evaluate_model(model)
        train = model.meta.get("train", {})
        row["train"] = {"steps": train.get("steps"), "epochs": train.get("epochs"),
                        "wall_time_s": train.get("wall_time"), "seed": train.get("seed"),
                        "threads": train.get("threads")}
        row["params"] = sum(p.numel() for p in model.parameters())
        row["config"] = model.meta.get("model_config")
        row["recipe"] = train.get("recipe")
        record["models"][name] = row
    return record


TIMING_KEYS = ("eval_seconds", "wall_time_s")


SIGNIFICANT = 6  # digits kept in metrics.json (see deterministic)


def deterministic(record: dict) -> dict:
    """The record without wall-clock times, so the same seed gives a byte-identical metrics.json.

    Times (training and evaluation seconds) stay in each checkpoint's metadata and in the printed table.
    Floats keep 6 significant digits: ``make evaluate`` and ``make pretrained`` (one process per model)
    sum the same float32 numbers in a different order, which moved the 8th digit of the entropies and
    left metrics.json modified in git after a reader's ``make evaluate``.
    """
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in TIMING_KEYS}
        if isinstance(x, list):
            return [strip(v) for v in x]
        if isinstance(x, float):
            return float(f"{x:.{SIGNIFICANT}g}")
        return x

    return strip(record)


def write_json(record: dict, path=METRICS_PATH) -> Path:
    """Write a metrics record (without its timings) atomically: a temporary file, then os.replace."""
    import os
    import tempfile

    record = deterministic(record)
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        _umask = os.umask(0)
        os.umask(_umask)
        os.chmod(tmp, 0o666 & ~_umask)  # mkstemp makes 0600; give the file the usual permissions
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(record, ensure_ascii=False, indent=1) + "\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m helpers.tools.evaluate",
                                description="评估预训练模型 (evaluate the shipped models)")
    p.add_argument("--json", default=None, help=f"写入的 JSON 文件 (default: helpers/pretrained/{METRICS_PATH.name})")
    p.add_argument("--models", nargs="*", default=None, help="只评估这些模型 (only these models)")
    args = p.parse_args(argv)
    from helpers.tools.pretrain import THREADS

    torch.set_num_threads(THREADS)  # as `make pretrained` evaluates (and much faster on a busy 2-core machine)
    try:
        record = run_evaluation(args.models or None)
    except ValueError as exc:
        print(f"错误 (error): {exc}", file=sys.stderr)
        return 2
    if not record["models"]:
        print("没有找到预训练模型 (no shipped models): 请运行 make pretrained。", file=sys.stderr)
        return 2
    print(format_tables(record))
    path = write_json(record, Path(args.json) if args.json else METRICS_PATH)
    print(f"\nwritten: {path.name}")
    if args.json is None:
        print(f"written: {write_doc(record).name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
