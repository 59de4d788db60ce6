"""Subjects for the families (not a family itself): pronouns, names and "my mother" / "your friend".

``sample_subject(rng)`` draws a spec, ``subject(spec)`` builds its tokens and says which pronoun refers
back to it (tom -> he, your mother -> she), how the verb agrees (i am / he is / they are) and what its
possessive is (tom -> tom 's, 汤姆 的). Chinese follows the grammar: a kinship noun after a singular
possessive takes no 的 (我 妈妈), any other noun does (你 的 朋友).
"""

from __future__ import annotations

from helpers.corpus.lexicon import KIN, NAMES, PEOPLE, PRONOUNS
from helpers.corpus.tokens import en, zh

NAME_KEYS = tuple(NAMES)
OWNERS = ("i", "you", "he", "she")
REL_NOUNS = ("mother", "father", "brother", "sister", "uncle", "aunt", "grandmother", "grandfather", "friend",
             "classmate", "neighbor")
BE = {"1s": "am", "2": "are", "3s": "is", "1p": "are", "3p": "are"}
HAVE = {"3s": "has"}


def sample_subject(rng, kinds=("pron", "name", "rel"), prons=("i", "you", "he", "she", "we", "they"),
                   owners=OWNERS) -> dict:
    """A subject spec; a question passes ``owners`` without "i" (nobody asks when my brother gets up)."""
    kind = rng.choice(kinds)
    if kind == "pron":
        return {"k": "pron", "p": rng.choice(prons)}
    if kind == "name":
        return {"k": "name", "n": rng.choice(NAME_KEYS)}
    noun = rng.choice(REL_NOUNS)
    gender = (KIN.get(noun) or PEOPLE[noun]).gender or rng.choice("mf")
    return {"k": "rel", "o": rng.choice(owners), "n": noun, "g": gender}


def gender(s) -> str:
    if s["k"] == "pron":
        return PRONOUNS[s["p"]][5]
    if s["k"] == "name":
        return NAMES[s["n"]][1]
    return s["g"]


def person(s) -> str:
    return PRONOUNS[s["p"]][4] if s["k"] == "pron" else "3s"


def pronoun(s) -> str:
    """The pronoun that refers back to the subject (tom -> he, your mother -> she, you -> i in an answer)."""
    if s["k"] == "pron":
        return {"i": "you", "you": "i", "we": "we"}.get(s["p"], s["p"])
    return "he" if gender(s) == "m" else "she"


def subject(s):
    """(English tokens, Chinese tokens) of a subject spec."""
    if s["k"] == "pron":
        e = en(s["p"])
        return [e], [zh(PRONOUNS[s["p"]][3], (e,))]
    if s["k"] == "name":
        e = en(s["n"])
        return [e], [zh(NAMES[s["n"]][0], (e,))]
    noun = KIN.get(s["n"]) or PEOPLE[s["n"]]
    eo, en_ = en(PRONOUNS[s["o"]][2]), en(noun.sg)
    z = [zh(PRONOUNS[s["o"]][3], (eo,))]
    if s["n"] not in KIN:
        z.append(zh("的", (), (eo,)))
    return [eo, en_], z + [zh(noun.zh, (en_,))]


def possessive(s):
    """(English tokens, Chinese tokens) of the subject as an owner: my / tom 's / your mother 's."""
    if s["k"] == "pron":
        e = en(PRONOUNS[s["p"]][2])
        return [e], [zh(PRONOUNS[s["p"]][3], (e,)), zh("的", (), (e,))]
    e, z = subject(s)
    es = en("'s")
    return e + [es], z + [zh("的", (), (es,))]


def pron_tokens(p):
    """(English token, Chinese token) of a pronoun key."""
    e = en(p)
    return e, zh(PRONOUNS[p][3], (e,))
