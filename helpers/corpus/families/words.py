"""Every word the pattern-table families (compare, modals, clauses, questions, adverbs, possessives) can
write, read from their data tables: what ``helpers.corpus.vocab`` adds to the vocabularies.

English: the literal tokens of the templates (both forms of "like/likes"), the forms of the agreeing
slots, the people, nouns, activities (every form), times, frequency adverbs and adjectives that the
slots take. Chinese: the same for the Chinese templates and their other references.
"""

from __future__ import annotations

from functools import lru_cache

from helpers.corpus.families.slots import AGREE, MINE, SUBJECTS, activities, nouns_of, times_of
from helpers.corpus.lexicon import ADJECTIVES, FREQ, NAMES, NOUNS, PRONOUNS, TIMES
from helpers.corpus.syllabus import read_tsv

TABLES = ("compare", "modals", "clauses", "questions", "adverbs", "possessives")


def _is_slot(t):
    return t.isupper() or t in AGREE


@lru_cache(maxsize=1)
def family_words() -> tuple[frozenset, frozenset]:
    """(English words, Chinese words) of the six families."""
    en, zh = {".", "?", "a", "an", "'s"}, {"。", "？", "的", "最"}
    for table in TABLES:
        for r in read_tsv(table):
            en |= {w for t in r["en"].split() if not _is_slot(t) for w in t.split("/")}
            zh |= {t for text in [r["zh"]] + r["alt"].split("|") for t in text.split() if not _is_slot(t)}
            for key in nouns_of(r.get("n", "")):
                n = NOUNS[key]
                en |= {n.sg, n.pl}
                zh |= {n.zh, n.mw} - {""}
            for key in times_of(r.get("t", "")):
                en |= set(TIMES[key][0])
                zh |= {w for w, _ in TIMES[key][1]}
            for key in r.get("adjs", "").split():
                en.add(key)
                zh.add(ADJECTIVES[key][0])
    for forms in AGREE.values():
        en |= set(forms)
    for key in SUBJECTS:
        s, o, p, z, _, _ = PRONOUNS[key]
        en |= {s, o, p, MINE[key]}
        zh.add(z)
    en |= set(NAMES)
    zh |= {z for z, _ in NAMES.values()}
    for r in activities():
        words = set(r["en"].split()) - {"POSS"}
        en |= words | ({r[f] for f in ("s", "d", "g")} - {""})
        zh |= set(r["zh"].split()) - {"POSS"}
    en |= set(FREQ)
    zh |= set(FREQ.values())
    for r in read_tsv("comparatives"):
        en |= {r["adj"]} | set(r["er"].split()) | set(r["est"].split())
        zh.add(r["zh"])
        if r["for"] not in ("person", "weather", "quantity"):
            for key in nouns_of(r["for"]):
                en |= {NOUNS[key].sg, NOUNS[key].pl}
                zh |= {NOUNS[key].zh, NOUNS[key].mw} - {""}
    return frozenset(en), frozenset(zh)
