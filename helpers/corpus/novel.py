"""The ``novel`` split: combinations of structure and words that train never shows together.

A *combo* is a piece of a sentence spec that a student may well type but that a model cannot have
memorised: a numeral with a noun (三 匹 马), two nouns joined by and (香蕉 和 苹果), or a relative
clause on a subject with its head noun and verb (帮助 我 妈妈 的 那 位 医生 ...). About a quarter of all
combos are *held out* (a fixed hash, so the choice does not depend on the seed): train, valid and test
never contain one, every novel pair contains at least one. The words themselves all occur in train.
"""

from __future__ import annotations

import zlib

HELD_OUT_MOD = 4  # one combo in four is held out


def combos(spec) -> set[tuple]:
    """The combos of a spec (a clause dict, a noun-phrase dict or a chain)."""
    out: set[tuple] = set()
    _walk(spec, out, role=None)
    return out


def _walk(x, out, role):
    if isinstance(x, list):
        for item in x:
            _walk(item, out, role)
        return
    if not isinstance(x, dict):
        return
    if x.get("type") == "act" or str(x.get("type", "")).startswith(("cop", "loc")):
        subj = x.get("subj")
        if isinstance(subj, dict) and subj.get("rel"):
            out.add(("subject_relative", subj["n"], subj["rel"]["v"]))
    if x.get("k") == "noun" and x.get("d") == "num":
        out.add(("numeral_noun", x["num"], x["n"]))
    if x.get("k") == "coord":
        keys = sorted(str(i.get("n", i.get("p"))) for i in x["items"])
        out.add(("coordination", *keys))
    for value in x.values():
        _walk(value, out, role)


def is_held_out(combo: tuple) -> bool:
    return zlib.crc32(repr(combo).encode()) % HELD_OUT_MOD == 0


def held_out(spec) -> bool:
    """True if the spec contains a held-out combo (it then belongs to the novel split only)."""
    return any(is_held_out(c) for c in combos(spec))


def sample_novel(rng):
    """A spec rich in combos (numerals, coordinations, subject relatives); the caller keeps held-out ones."""
    from helpers.corpus.lexicon import NOUNS
    from helpers.corpus.sampler import (
        PERSON_NOUNS,
        TAUTOLOGY,
        sample_act,
        sample_coord_object,
        sample_coord_people,
        sample_rel,
    )

    r = rng.random()
    if r < 0.4:  # a numeral with a noun
        verb = rng.choice(("have", "buy", "eat", "see", "draw", "want", "sell"))
        c = sample_act(rng, verb=verb, question=False, neg=False, tense="d" if verb in ("see", "buy", "eat") else None)
        obj = c.get("obj")
        if obj and obj.get("k") == "noun" and not NOUNS[obj["n"]].mass and "kin" not in NOUNS[obj["n"]].cls \
                and obj["n"] not in ("door", "window", "tv"):
            obj.update(d="num", num=rng.randint(2, 4 if verb in ("have", "want") else 10))
            obj.pop("rel", None)
            obj.pop("poss", None)
            obj.pop("drop", None)
        return c
    if r < 0.7:  # a coordination
        if rng.random() < 0.5:
            return sample_act(rng, subj=sample_coord_people(rng), question=False)
        verb = rng.choice(("like", "eat", "buy", "want", "have", "drink", "sell"))
        c = sample_act(rng, verb=verb, question=False, neg=False)
        c["obj"] = sample_coord_object(rng, verb)
        return c
    c = sample_act(rng, question=False)
    while c["v"] == "play_i":  # 玩 is for children, and the head is an adult
        c = sample_act(rng, question=False)
    base = c["v"].split("_")[0]
    head = rng.choice([h for h in PERSON_NOUNS if TAUTOLOGY.get(h, "-").split("_")[0] != base])  # a relative clause
    # on the subject, but not "the cook ... can cook"
    obj_rel = (c.get("obj") or {}).get("rel") or {}
    rel = sample_rel(rng, head, exclude=tuple(v for v in (c["v"], obj_rel.get("v")) if v))
    if rel:
        c["subj"] = {"k": "noun", "n": head, "d": "the", "rel": rel}
    return c
