"""Sentences of two clauses (syllabus: 复合句): because, so, but, when, if, before, after, until and
i think / know / hope (that): i stayed at home because it was raining -> 因为 下雨 了 ， 我 待 在 家里
(and 我 待 在 家里 ， 因为 下雨 了 as another reference); when he came home , his mother was cooking ->
他 回 家 的 时候 ， 他 妈妈 在 做饭.

The patterns are the rows of ``data/clauses.tsv``. Chinese puts the clause of time, condition and
reason first, so the clauses swap places against English: the reordering that attention has to learn.
The person is named at its first mention in each language and a pronoun at the next one (tom went to
bed early because he was tired -> 因为 汤姆 很 累 ， 他 很 早 就 睡觉 了), so tom and 汤姆 cross.
"""

from __future__ import annotations

from helpers.corpus.families.slots import render_row, sample_row

TABLE = "clauses"


def sample(rng) -> dict:
    return sample_row(rng, TABLE)


def render(spec):
    return render_row(spec)
