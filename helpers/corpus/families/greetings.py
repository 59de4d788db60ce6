"""Greetings and set phrases (syllabus: 问候与日常用语): hello -> 你好, thank you , tom -> 谢谢 你 ， 汤姆.

The phrases are rows of ``data/phrases.tsv`` with their links; a name may follow as an address
("good morning , lucy") where the row allows it, and then the name keeps its place after a comma in
both languages (早上 好 ， 露西).
"""

from __future__ import annotations

from helpers.corpus.lexicon import NAMES
from helpers.corpus.syllabus import read_tsv
from helpers.corpus.tokens import en, finish, zh

NAME_KEYS = tuple(NAMES)


def _links(text):
    """"0-1 2~0" -> ([(0, 1)], [(2, 0)]): sure and possible links (English index, Chinese index)."""
    sure, poss = [], []
    for item in text.split():
        kind = "-" if "-" in item else "~"
        i, j = item.split(kind)
        (sure if kind == "-" else poss).append((int(i), int(j)))
    return sure, poss


def phrases():
    return read_tsv("phrases")


def sample(rng) -> dict:
    row = rng.randrange(len(phrases()))
    one_word = len(phrases()[row]["en"].split()) == 1  # "hello ." is too short for the corpus: "hello , tom ."
    name = rng.choice(NAME_KEYS) if phrases()[row]["addr"] == "yes" and (one_word or rng.random() < 0.4) else ""
    return {"row": row, "name": name}


def render(spec):
    row = phrases()[spec["row"]]
    e = [en(w) for w in row["en"].split()]
    words = row["zh"].split()
    sure, poss = _links(row["links"])
    z = [zh(w, [e[i] for i, j in sure if j == k], [e[i] for i, j in poss if j == k]) for k, w in enumerate(words)]
    alternatives = [[zh(w) for w in alt.split()] for alt in row["alt"].split("|") if alt.strip()]
    if spec.get("name"):
        comma, name = en(","), en(spec["name"])
        tail = [zh("，", (comma,)), zh(NAMES[spec["name"]][0], (name,))]
        e += [comma, name]
        z += tail
        alternatives = [alt + [zh(t[0]) for t in tail] for alt in alternatives]
    return finish(e, z, question=row["q"] == "yes", tags=("set_phrase",), alternatives=alternatives)
