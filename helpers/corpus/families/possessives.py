"""Possessive pronouns and quantifiers (syllabus: mine, yours, his, hers, ours, theirs; some, any, all,
both, every, each, other, another): this bag is mine -> 这 个 包 是 我 的, every student has a book -> 每 个
学生 都 有 一 本 书, both my parents are teachers -> 我 父母 都 是 老师.

The patterns are the rows of ``data/possessives.tsv``; Chinese adds 都 before the verb after all / both /
every / each, and "any" in a question or a negation has no word of its own.
"""

from __future__ import annotations

from helpers.corpus.families.slots import render_row, sample_row

TABLE = "possessives"


def sample(rng) -> dict:
    return sample_row(rng, TABLE)


def render(spec):
    return render_row(spec)
