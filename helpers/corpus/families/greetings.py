"""Greetings and set phrases (syllabus: 问候与日常用语): hello -> 你好, thank you , tom -> 谢谢 你 ， 汤姆.

The phrases are rows of ``data/phrases.tsv`` with their links; a name may follow as an address
("good morning , lucy") where the row allows it, and then the name keeps its place after a comma in
both languages (早上 好 ， 露西).
"""

from __future__ import annotations

from helpers.corpus.families.slots import parse_links
from helpers.corpus.lexicon import NAMES
from helpers.corpus.syllabus import read_tsv
from helpers.corpus.tokens import en, finish, zh

NAME_KEYS = tuple(NAMES)


def phrases():
    return read_tsv("phrases")


def _addressable(row) -> bool:
    """A name can be added to the phrase (the row's "addr" column: "no problem , tom", not "please open your books")."""
    return row["addr"] == "yes"


def sample(rng) -> dict:
    row = rng.randrange(len(phrases()))
    one_word = len(phrases()[row]["en"].split()) == 1  # "hello ." is too short for the corpus: "hello , tom ."
    # most phrases carry a name: without one a phrase exists once in the whole corpus (the splits are
    # disjoint) and would never reach train
    name = rng.choice(NAME_KEYS) if _addressable(phrases()[row]) and (one_word or rng.random() < 0.8) else ""
    return {"row": row, "name": name}


def render(spec):
    row = phrases()[spec["row"]]
    e = [en(w) for w in row["en"].split()]
    words = row["zh"].split()
    sure, poss = parse_links(row["links"])
    z = [zh(w, [e[i] for i, j in sure if j == k], [e[i] for i, j in poss if j == k]) for k, w in enumerate(words)]
    alternatives = [[zh(w) for w in alt.split()] for alt in row["alt"].split("|") if alt.strip()]
    question = row["q"] == "yes"
    if spec.get("name"):
        # English puts the name last; Chinese puts a name it calls out first (汤姆 ， 你 好 吗 ？), and a
        # statement takes it at either end (不 客气 ， 汤姆 / 汤姆 ， 不 客气): the other end is a reference
        comma, name = en(","), en(spec["name"])
        call = [zh(NAMES[spec["name"]][0], (name,)), zh("，", (comma,))]
        e += [comma, name]
        plain = [zh(t[0]) for t in call]
        front = [call] + [plain + alt for alt in alternatives]
        back = [list(reversed(call))] + [alt + list(reversed(plain)) for alt in alternatives]
        if question:
            z, alternatives = call + z, front[1:]
        else:
            alternatives = front[1:] + [plain + [zh(t[0]) for t in z]] + back[1:]
            z = z + list(reversed(call))
    return finish(e, z, question=question, tags=("set_phrase",), alternatives=alternatives)
