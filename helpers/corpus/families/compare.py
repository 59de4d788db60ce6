"""Comparison (syllabus: 比较级和最高级): tom is taller than jack -> 汤姆 比 杰克 高, lucy is the tallest girl
in our class -> 露西 是 我们 班 最 高 的 女孩, as tall as -> 和 … 一样 高, not as / less ... as -> 没有 … 那么.

The patterns are the rows of ``data/compare.tsv``; the adjectives and their forms (regular -er / -est,
more / most, and the irregular good better best, bad worse worst, many more most, little less least)
are ``data/comparatives.tsv``, where a person's "short" is 矮 and a thing's 短. The comparison word moves:
than Y -> 比 Y before the adjective, "in our class" -> 我们 班 before 最.
"""

from __future__ import annotations

from helpers.corpus.families.slots import chunk, nouns_of, render_row, sample_row
from helpers.corpus.syllabus import read_tsv

TABLE = "compare"
THINGS = ("person", "weather", "quantity")  # the "for" values that are not nouns


def adjectives():
    return read_tsv("comparatives")


def adjectives_for(kind):
    """Indices of comparatives.tsv that fit a row's "adj" column."""
    rows = adjectives()
    if kind in ("person", "weather"):
        return [i for i, r in enumerate(rows) if r["for"] == kind]
    if kind in ("thing", "thing2"):
        return [i for i, r in enumerate(rows) if r["for"] not in THINGS
                and (kind == "thing" or r["er"].startswith("more "))]
    words = kind.split()
    return [i for i, r in enumerate(rows) if r["adj"] in words and (r["for"] == "person") == (kind == "tall short")]


def sample(rng) -> dict:
    spec = sample_row(rng, TABLE)
    row = read_tsv(TABLE)[spec["row"]]
    kind = row["adj"]
    if kind:
        spec["adj"] = rng.choice(adjectives_for(kind))
        if kind.startswith("thing"):
            keys = nouns_of(adjectives()[spec["adj"]]["for"])
            keys = [k for k in keys if not row["n"] or k in nouns_of(row["n"])]
            if not keys:  # this adjective describes none of the row's nouns: draw again
                return sample(rng)
            spec["n"] = spec["m"] = rng.choice(keys)
    return spec


def sample_row_of(rng, row):
    """A spec of one given row (for tests and for reading the patterns one by one)."""
    spec = sample(rng)
    while spec["row"] != row:
        spec = sample(rng)
    return spec


def adjective_values(index):
    """ADJ, ER and EST of row ``index`` of comparatives.tsv (most interesting -> 最 有趣, most~最)."""
    r = adjectives()[index]
    er, est = r["er"].split(), r["est"].split()
    est_links = [(0, 0), (1, 1)] if len(est) == 2 else [(0, 0), (0, 1)]
    return {"ADJ": chunk([r["adj"]], [r["zh"]]), "ER": chunk(er, [r["zh"]]),
            "EST": chunk(est, ["最", r["zh"]], est_links)}


def render(spec):
    return render_row(spec, adjective_values(spec["adj"]) if "adj" in spec else {})
