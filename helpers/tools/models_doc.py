"""The evaluation tables of a metrics record (``helpers.tools.evaluate``) as Markdown, and docs/models.md.

``format_tables(record)`` gives the tables that ``python -m helpers.tools.evaluate`` prints and that
notebook 06 shows: overall scores, char-BLEU by source length, a learner's own sentences, and error
counts over whole splits. ``write_doc(record)`` writes them into ``docs/models.md`` with the recipe of
every model. Parts a record does not have (an older record, a model evaluated without learner
sentences) are left out, not shown as errors.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["DOC_PATH", "decoding_label", "format_tables", "write_doc"]

DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "models.md"
ERROR_KINDS = (("fewer_clauses", "fewer clauses"), ("repeated_clause", "repeated clause"),
               ("early_stop", "early stop"), ("no_eos", "no <eos>"), ("invented", "invented word"))


def _fmt(x, digits=3):
    return "—" if x is None else f"{x:.{digits}f}"


def _pct(x):
    return "—" if x is None else f"{100 * x:.0f} %"


def decoding_label(d: dict | None) -> str:
    """A short description of a decoding record, e.g. "greedy, <eos> guard (2, 0.5)"."""
    if not d:
        return "greedy"
    parts = ["greedy" if d.get("beam_size", 1) == 1 else f"beam {d['beam_size']}"]
    if d.get("beam_size", 1) > 1 or d.get("coverage_penalty"):
        form = "|y|^α" if d.get("length_norm", "power") == "power" else "((5+|y|)/6)^α"
        parts.append(f"lp {form}, α {d.get('length_penalty', 1.0):g}")
    if d.get("coverage_penalty"):
        parts.append(f"coverage β {d['coverage_penalty']:g}")
    if d.get("eos_guard"):
        k, m = d["eos_guard"]
        parts.append(f"<eos> guard ({k}, {m:g})")
    return ", ".join(parts)


def _overall(record) -> list[str]:
    lines = ["| model | test char-BLEU | test exact | novel char-BLEU | novel exact | long char-BLEU | AER ↓ "
             "| mean max-α | entropy | params | train steps | train s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in record["models"].items():
        t, tr, nv = r["test"], r.get("train") or {}, r.get("novel") or {}
        wall = tr.get("wall_time_s")
        lines.append(f"| {name} | {_fmt(t['char_bleu'])} | {_fmt(t['exact_match'])} | {_fmt(nv.get('char_bleu'))} | "
                     f"{_fmt(nv.get('exact_match'))} | {_fmt(r['long']['char_bleu'])} | {_fmt(t['aer'])} | "
                     f"{_fmt(t.get('max_alpha'))} | {_fmt(t.get('entropy'), 2)} | {r.get('params', '—')} | "
                     f"{tr.get('steps', '—')} | {'—' if wall is None else f'{wall:.0f}'} |")
    return lines


def _by_length(record) -> list[str]:
    buckets, split = record["buckets"], record.get("bucket_split") or {}
    heads = [f"{b} ({split[b]})" if b in split else b for b in buckets]
    lines = ["char-BLEU by source length (English tokens; the split each bucket comes from):", "",
             "| model | " + " | ".join(heads) + " |", "|---|" + "---|" * len(buckets)]
    first = next(iter(record["models"].values()), None)
    if first is not None:
        lines.append("| (sentences) | " + " | ".join(str(first["by_length"][b]["n"]) for b in buckets) + " |")
    for name, r in record["models"].items():
        lines.append(f"| {name} | " + " | ".join(_fmt(r["by_length"][b]["char_bleu"]) for b in buckets) + " |")
    return lines


def _learner(record) -> list[str]:
    rows = {name: r["learner"] for name, r in record["models"].items() if r.get("learner")}
    if not rows:
        return []
    first = next(iter(rows.values()))
    lines = [f"A learner's own sentences ({first['n']}, of which {first['n_long']} have 20 tokens or more; "
             "exact = equals a reference, spaces ignored; within two = character edit distance ≤ 2 to the nearest "
             "reference; an unknown word is copied through attention, a sentence without English is refused "
             "and counts as wrong):", "",
             "| model | exact | within two | ≥ 20 tokens: exact | ≥ 20 tokens: within two | refused |",
             "|---|---|---|---|---|---|"]
    for name, r in rows.items():
        lines.append(f"| {name} | {_pct(r['exact'])} | {_pct(r['within_two'])} | {_pct(r['long_exact'])} | "
                     f"{_pct(r['long_within_two'])} | {len(r['unknown'])} |")
    unknown = {u["en"]: u["words"] for r in rows.values() for u in r["unknown"]}
    if unknown:
        lines += ["", "Refused (no English word):", ""]
        lines += [f"- {en} — {', '.join(words)}" for en, words in unknown.items()]
    return lines


def _errors(record) -> list[str]:
    rows = [(name, split, e) for name, r in record["models"].items() for split, e in (r.get("errors") or {}).items()]
    if not rows:
        return []
    lines = ["Errors over whole splits (number of sentences; one sentence may show several; "
             "`helpers.tools.scoring` defines each):", "",
             "| model | split | sentences | " + " | ".join(label for _, label in ERROR_KINDS) + " |",
             "|---|---|---|" + "---|" * len(ERROR_KINDS)]
    for name, split, e in rows:
        lines.append(f"| {name} | {split} | {e['n']} | " + " | ".join(str(e[k]) for k, _ in ERROR_KINDS) + " |")
    return lines


def format_tables(record: dict) -> str:
    """The Markdown tables of a metrics record: overall, by length, learner sentences, errors."""
    lines = _overall(record) + [""] + _by_length(record)
    for part in (_learner(record), _errors(record)):
        if part:
            lines += [""] + part
    return "\n".join(lines)


def write_doc(record: dict, path=DOC_PATH) -> Path:
    """docs/models.md: the evaluation tables of the shipped models, with how they were made."""
    import platform

    path = Path(path)
    if not path.parent.is_dir():
        return path
    recipes = []
    for name, r in record["models"].items():
        rec, cfg = r.get("recipe") or {}, r.get("config") or {}
        recipes.append(f"| {name} | {cfg.get('hidden_size')} | {cfg.get('emb_size')} | {cfg.get('bidirectional')} | "
                       f"{cfg.get('input_feeding')} | {cfg.get('scaled_score', False)} | {rec.get('align_weight')} | "
                       f"{rec.get('steps')} | {rec.get('batch_size')} | {rec.get('lr')} {rec.get('lr_schedule', 'cosine')} | "
                       f"{decoding_label(r.get('decoding'))} |")
    text = f"""# The shipped models (corpus {record['corpus_version']})

Written by `python -m helpers.tools.evaluate` (also run by `make pretrained`); the numbers are those of
`helpers/pretrained/metrics.json`. Each model decodes as it ships (the last column of the recipe table;
`helpers.translate` uses the same). `test` covers the training length range and `novel` (combinations of
structure and words that train never shows together) is held out; `long` holds sentences longer than any
training sentence. AER (alignment error rate, lower is better) compares each target token's arg-max
attention with the gold links of `test`, teacher forced; mean max-α and entropy (nats) say how soft the
attention rows are (a one-hot grid: 1 and 0). Train seconds are wall time on one thread
({platform.machine()}), two models at a time.

{format_tables(record)}

How they were made (`helpers/tools/pretrain.py` says why and what else was tried):

| model | hidden | emb | bidirectional encoder | input feeding | score / sqrt(H) | align_weight | steps | batch | lr, schedule | decoding |
|---|---|---|---|---|---|---|---|---|---|---|
{chr(10).join(recipes)}
"""
    path.write_text(text, encoding="utf-8")
    return path
