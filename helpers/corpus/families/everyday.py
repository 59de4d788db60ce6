"""Everyday sentences of junior-secondary English (syllabus: the present perfect with already / yet /
ever / never / since, feelings, quantities, something / anything / nothing, the same / different, mr +
surname, its, though / however): i have been to beijing twice -> 我 去 过 北京 两 次, mr green is our
teacher -> 格林 先生 是 我们 的 老师, there is nothing in my bag -> 我 的 包 里 什么 都 没有.

The patterns are the rows of ``data/everyday.tsv``; besides the slots of ``slots.py`` they use the extra
slots of ``data/everyday_slots.tsv`` (CITY, SUR, NT, PLC ..., see ``everyday_slots``). The perfect's
"have" is sure-linked to the aspect particle (了 / 过) that carries it in Chinese."""

from __future__ import annotations

from helpers.corpus.families import everyday_slots

TABLE = "everyday"


def sample(rng) -> dict:
    return everyday_slots.sample(rng, TABLE)


def render(spec):
    return everyday_slots.render(spec)
