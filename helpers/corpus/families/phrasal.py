"""Phrasal verbs, imperatives and places of junior-secondary English (syllabus: turn off / on, put on
/ away, take off, come back, go out, sit down, stand up, keep, stop doing, start to, might, between, far
from, on the other side of, turn left / right): turn off the light -> 把 灯 关 了, put the book on the desk
-> 把 书 放 在 书桌 上, the bank is far from here -> 银行 离 这里 很 远.

The patterns are the rows of ``data/phrasal.tsv`` with the slots of ``slots.py`` and the extra slots of
``data/everyday_slots.tsv`` (see ``everyday_slots``); the particle of a phrasal verb is sure-linked to the
Chinese verb or resultative complement that carries it (turn off -> 关, put away -> 收 起来)."""

from __future__ import annotations

from helpers.corpus.families import everyday_slots

TABLE = "phrasal"


def sample(rng) -> dict:
    return everyday_slots.sample(rng, TABLE)


def render(spec):
    return everyday_slots.render(spec)
