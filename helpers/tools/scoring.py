"""Scores beyond BLEU for ``helpers.tools.evaluate``: a learner's own sentences, and what goes wrong.

* **A learner's own sentences** (``helpers/corpus/data/learner_sentences.json``: English sentences a student
  types, each with one to three natural references, written before any model ran). Per sentence:
  *exact* = the output equals one of the references, spaces ignored; *within two* = the character edit
  distance (Levenshtein: insertions, deletions, substitutions, each 1) to the nearest reference is at
  most 2. Each sentence is read as ``translate`` reads it: a word outside the vocabulary is <unk> and
  copied back through attention (``copied`` counts the copies); a sentence without any English word is
  refused, counts as wrong in both and is listed under ``unknown`` (with the words ``translate``
  names). Reported overall and for the sentences of ≥ ``LONG_TOKENS`` English tokens.
* **Error counts over a whole split** (each sentence may count in several; numbers of sentences):

  - ``fewer_clauses``: the output has fewer clauses than the reference (a clause = a maximal run of
    tokens between ``CLAUSE_MARKS`` ，。？！；：) — a clause was dropped or two were merged;
  - ``repeated_clause``: some clause occurs in the output more often than in the reference (and at
    least twice);
  - ``early_stop``: the output ended with <eos> while holding fewer than 80 % of the reference's tokens;
  - ``no_eos``: the output never emitted <eos> (it ran to the length limit, usually repeating);
  - ``invented``: the output contains a word that the reference does not (notebook 01's "编词").
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

__all__ = ["CLAUSE_MARKS", "LEARNER_PATH", "LONG_TOKENS", "clauses", "edit_distance", "error_counts",
           "learner_scores", "load_learner_sentences", "score_learner"]

LEARNER_PATH = Path(__file__).resolve().parents[1] / "corpus" / "data" / "learner_sentences.json"
LONG_TOKENS = 20  # "long" learner sentences: at least this many English tokens
CLAUSE_MARKS = frozenset("，。？！；：")
EARLY_STOP_SHARE = 0.8


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance between two strings (characters; insert, delete, substitute cost 1 each)."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def score_learner(output: str | None, refs) -> dict:
    """exact / within_two / distance of one output against its references (None output = not translated)."""
    if output is None:
        return {"exact": False, "within_two": False, "distance": None}
    out = "".join(output.split())
    distance = min(edit_distance(out, "".join(r.split())) for r in refs)
    return {"exact": distance == 0, "within_two": distance <= 2, "distance": distance}


def load_learner_sentences(path=LEARNER_PATH) -> list[dict] | None:
    """The learner sentences ({"en", "refs"} each), or None where the file is not there (an installed package)."""
    path = Path(path)
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))["sentences"]


def learner_scores(model, sentences) -> dict:
    """Translate every learner sentence with the model's shipped decoding; the summary and each output."""
    from helpers.corpus import tokenize_en
    from helpers.decode import decode_sentences, shipped_decoding
    from helpers.runtime.errors import HelpersError
    from helpers.translation.copying import copy_unknown, join_chinese
    from helpers.translation.source import read_source

    sources, where, unknown, outputs = [], [], [], [None] * len(sentences)
    for n, s in enumerate(sentences):
        try:  # as translate reads it: unknown words become <unk>, only input without English is refused
            sources.append(read_source(s["en"], model.src_vocab))
            where.append(n)
        except HelpersError as exc:
            unknown.append({"en": s["en"], "words": list(getattr(exc, "words", []))})
    copied = 0
    if sources:
        result = decode_sentences(model, [src.ids for src in sources], **shipped_decoding(model))
        for k, (n, tokens) in enumerate(zip(where, result.tokens)):
            attention = None if result.attention is None else result.attention[k]
            words, copies = copy_unknown(model.tgt_vocab.decode(tokens), attention, sources[k].surfaces)
            outputs[n], copied = join_chinese(words), copied + len(copies)
    rows = [score_learner(o, s["refs"]) for o, s in zip(outputs, sentences)]
    long = [r for r, s in zip(rows, sentences) if len(tokenize_en(s["en"])) >= LONG_TOKENS]

    def share(rs, key):
        return sum(r[key] for r in rs) / len(rs) if rs else None

    return {"n": len(rows), "exact": share(rows, "exact"), "within_two": share(rows, "within_two"),
            "n_long": len(long), "long_exact": share(long, "exact"), "long_within_two": share(long, "within_two"),
            "unknown": unknown, "copied": copied, "outputs": outputs}


def clauses(tokens) -> list[tuple]:
    """Maximal runs of tokens between clause marks (，。？！；：), as tuples; empty runs dropped."""
    out, current = [], []
    for tok in tokens:
        if tok in CLAUSE_MARKS:
            if current:
                out.append(tuple(current))
            current = []
        else:
            current.append(tok)
    if current:
        out.append(tuple(current))
    return out


def error_counts(hyps, refs, finished) -> dict:
    """Numbers of sentences with each kind of error (module docstring); hyps / refs are token lists."""
    counts = {"n": len(hyps), "fewer_clauses": 0, "repeated_clause": 0, "early_stop": 0, "no_eos": 0, "invented": 0}
    for hyp, ref, done in zip(hyps, refs, finished):
        h_cl, r_cl = clauses(hyp), clauses(ref)
        counts["fewer_clauses"] += len(h_cl) < len(r_cl)
        h_count, r_count = Counter(h_cl), Counter(r_cl)
        counts["repeated_clause"] += any(c >= 2 and c > r_count[cl] for cl, c in h_count.items())
        counts["early_stop"] += bool(done) and len(hyp) < EARLY_STOP_SHARE * len(ref)
        counts["no_eos"] += not done
        counts["invented"] += any(w not in set(ref) for w in hyp)
    return counts
