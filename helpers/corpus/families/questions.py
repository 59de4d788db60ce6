"""Questions with which, whose, how many, how much, how long, how often, what kind of, what color
(syllabus: 特殊疑问句): which book is yours ? -> 哪 本 书 是 你 的 ？, whose bag is this ? -> 这 是 谁 的 包 ？,
how many books do you have ? -> 你 有 几 本 书 ？ (多少 本 as another reference).

The patterns are the rows of ``data/questions.tsv``. Chinese keeps the question word where the answer
goes, so "how many" moves after the verb and "how often" becomes 多久 … 一 次 around the verb phrase.
"""

from __future__ import annotations

from helpers.corpus.families.slots import render_row, sample_row

TABLE = "questions"


def sample(rng) -> dict:
    return sample_row(rng, TABLE)


def render(spec):
    return render_row(spec)
