"""Adverbs of frequency and degree, like doing and the present continuous (syllabus: 频度副词, 程度副词,
like doing, 现在进行时): she often reads books -> 她 经常 看 书, i am too tired -> 我 太 累 了, i like reading
books -> 我 喜欢 看 书, they are playing football now -> 他们 现在 在 踢 足球.

The patterns are the rows of ``data/adverbs.tsv``, the verb phrases those of ``data/activities.tsv``.
English -ing after like / enjoy is a bare verb in Chinese; "now" and time phrases move before the verb.
"""

from __future__ import annotations

from helpers.corpus.families.slots import render_row, sample_row

TABLE = "adverbs"


def sample(rng) -> dict:
    return sample_row(rng, TABLE)


def render(spec):
    return render_row(spec)
