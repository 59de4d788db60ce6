"""Discourse plans about people (corpus 3.0): preferences and skills compared, the same taste shared,
help, a lost thing found, a question with its reason. Registered in ``helpers.corpus.stories_plans.PLANS``.
"""

from __future__ import annotations

from helpers.corpus.sampler import coref
from helpers.corpus.stories_steps import feel, timed
from helpers.corpus.story_parts import DRINK, FOOD, SPORTS, _go, group_pron, other_person

PREF = {"eat": FOOD, "drink": DRINK, "play": SPORTS, "read": ("book", "newspaper", "magazine", "novel")}


def _np(n):
    return {"k": "noun", "n": n, "d": "the" if n in ("piano", "guitar") else "bare"}


def _like(subj, n, neg=False):
    return {"type": "act", "v": "like", "tense": "p", "neg": neg, "q": None, "subj": subj, "obj": _np(n)}


def _habit(st, v, n, subj, place, also=False):
    a = {"type": "act", "v": v, "tense": "p", "neg": False, "q": None, "subj": subj, "obj": _np(n)}
    a["freq"] = "often" if also else st.rng.choice(("often", "usually", "sometimes"))  # 还 经常, not 还 有时候
    a["place"] = place
    return a


HOME_OF = {"eat": "home", "drink": "home", "play": "park", "read": "library"}


def preference(st, size):
    """likes apples , but does not like bananas , so often eats apples at home ..."""
    st.tense = "p"
    v = st.rng.choice(tuple(PREF))
    x, y = st.rng.sample(PREF[v], 2)
    st.add(None, _like(st.agent, x))
    st.add("but", _like(st.he(), y, neg=True))
    st.add("so", _habit(st, v, x, st.he(), HOME_OF[v]))
    return st.spec()


def compare_likes(st, size):
    """tom likes tea , while lily likes coffee [, so tom often drinks tea at home]."""
    st.tense = "p"
    v = st.rng.choice(tuple(PREF))
    x, y = st.rng.sample(PREF[v], 2)
    other = other_person(st.rng, st.agent, pron=st.pron)
    st.add(None, _like(st.agent, x))
    st.add("while", _like(other, y), same=False)
    she = coref(other, st.rng)
    clash = she == st.pron  # lucy ... lily: "she ... , and she ..." would not say who; name them again
    if st.n() < size:
        st.add("so", _habit(st, v, x, st.agent if clash else st.he(), HOME_OF[v]), same=False)
    if st.n() < size:
        st.add("and", _habit(st, v, y, other if clash else she, HOME_OF[v]), same=False)
    return st.spec()


def same_too(st, size):
    """tom likes football , and his brother also likes football , so they often play football in the park."""
    st.tense = "p"
    v = st.rng.choice(("play", "read", "eat"))
    x = st.rng.choice(PREF[v])
    other = other_person(st.rng, st.agent, pron=st.pron)
    st.add(None, _like(st.agent, x))
    st.add("too", _like(other, x), same=False)
    if st.n() < size:
        st.add("so", _habit(st, v, x, group_pron(st.agent, other, st.rng),
                            HOME_OF[v]), same=False)
    return st.spec()


def ability(st, size):
    """can swim , but her brother can not swim , so he will not go to the pool tomorrow."""
    st.tense = "p"
    v = st.rng.choice(("swim", "play", "sing", "dance", "cook", "speak"))
    obj = None
    if v == "play":
        obj = _np(st.rng.choice(SPORTS + ("piano", "guitar")))
    elif v == "speak":
        obj = _np(st.rng.choice(("english", "chinese")))
    other = other_person(st.rng, st.agent, pron=st.pron)
    st.add(None, {"type": "act", "v": v, "tense": "c", "neg": False, "q": None, "subj": st.agent, "obj": obj})
    st.add("but", {"type": "act", "v": v, "tense": "c", "neg": True, "q": None, "subj": other, "obj": obj},
           same=False)
    if st.n() < size and (v == "swim" or (obj and obj["n"] in SPORTS)):
        place = st.rng.choice(("pool", "beach") if v == "swim" else ("park",))
        g = _go(st.rng, coref(other, st.rng), "f", place, st.rich, time=False)
        g["neg"], g["time"] = True, st.rng.choice(("tomorrow", "today"))
        g.pop("by", None)
        st.add("so", g)
    return st.spec()


def skill_practice(st, size):
    """anna can play the piano , and she often plays the piano at home , so her mother is happy."""
    st.tense = "p"
    n = st.rng.choice(("piano", "guitar") + SPORTS)
    st.add(None, {"type": "act", "v": "play", "tense": "c", "neg": False, "q": None, "subj": st.agent,
                  "obj": _np(n)})
    st.add("and_also", _habit(st, "play", n, st.he(), "home" if n in ("piano", "guitar") else "park", also=True))
    if st.n() < size:
        mother = {"k": "noun", "n": st.rng.choice(("mother", "father", "teacher")), "d": "poss", "poss": st.poss()}
        st.add("so", {"type": "cop_adj", "subj": mother, "adj": "happy", "tense": "p", "neg": False, "q": None},
               same=False)
    return st.spec()


def help_family(st, size):
    """helped his mother this morning , and also cleaned the house , so she was happy."""
    st.tense = "d"
    old = st.agent.get("n") in ("grandmother", "grandfather", "mother", "father", "uncle", "aunt", "teacher",
                                "doctor", "nurse")
    kin = {"k": "noun", "n": st.rng.choice(("sister", "brother", "friend") if old else
                                           ("mother", "father", "grandmother", "grandfather")), "d": "poss",
           "poss": st.poss()}
    st.add(None, timed(st, {"type": "act", "v": "help", "tense": "d", "neg": False, "q": None, "subj": st.agent,
                            "obj": kin}))
    st.add("and_also", {"type": "act", "v": "clean", "tense": "d", "neg": False, "q": None, "subj": st.he(),
                        "obj": {"k": "noun", "n": st.rng.choice(("house", "room")), "d": "the"}})
    st.add("so", feel(st, "happy", subj=coref(kin, st.rng)), same=False)
    return st.spec()


def lost_found(st, size):
    """lost her key at school yesterday , but her brother found the key in the park , so she was happy."""
    st.tense = "d"
    n = st.rng.choice(("key", "phone", "bag", "umbrella", "ticket", "pen"))
    place = st.rng.choice(("school", "park", "library", "station"))
    st.add(None, timed(st, {"type": "act", "v": "lose", "tense": "d", "neg": False, "q": None, "subj": st.agent,
                            "obj": {"k": "noun", "n": n, "d": "poss", "poss": st.poss(), "zh_poss_drop": True},
                            "place": place}))
    other = other_person(st.rng, st.agent, pron=st.pron)
    st.add("but", {"type": "act", "v": "find", "tense": "d", "neg": False, "q": None, "subj": other,
                   "obj": {"k": "noun", "n": n, "d": "the"}},  # found it (where it was lost)
           same=False)
    if st.n() < size:
        clash = coref(other, st.rng)["p"] == st.pron["p"]  # lily ... lucy ... so she: name her again
        st.add("so", feel(st, "happy", subj=dict(st.agent) if clash else None), same=False)
    return st.spec()


def why_because(st, size):
    """why does lily often go to the library ? because she likes books , and she ..."""
    st.tense = "p"
    place, n, v = st.rng.choice((("library", "book", "read"), ("library", "novel", "read"),
                                 ("park", "football", "play"), ("park", "tennis", "play"),
                                 ("pool", None, "swim"), ("cinema", "movie", "watch")))
    st.add(None, {"type": "act", "v": "go", "tense": "p", "neg": False, "q": "why", "subj": st.agent,
                  "dest": place, "time": st.rng.choice(("every_week", "on_weekends", "every_day"))})
    if st.agent["k"] == "pron" and st.agent["p"] in ("i", "we"):  # one asks about others
        st.items[0]["subj"] = {"k": "name", "n": st.rng.choice(("tom", "lily", "anna", "jack"))}
    if st.items[0]["subj"] != st.agent:
        st.agent = st.items[0]["subj"]
        st.pron = coref(st.agent, st.rng)
    reason = _like(st.he(), n) if n else {"type": "act", "v": "swim", "tense": "c", "neg": False, "q": None,
                                           "subj": st.he()}
    st.add("answer_because", reason, same=False)  # (not "because she likes books , and she also cleans ...")
    return st.spec()


def two_habits(st, size):
    """tom usually reads books in the library , while his sister usually plays tennis in the park."""
    st.tense = "p"
    (v1, n1), (v2, n2) = st.rng.sample([(v, n) for v in PREF for n in PREF[v][:3]], 2)
    while v1 == v2:
        v2, n2 = st.rng.choice([(v, PREF[v][0]) for v in PREF])
    other = other_person(st.rng, st.agent, pron=st.pron)
    a = _habit(st, v1, n1, st.agent, HOME_OF[v1])
    b = _habit(st, v2, n2, other, HOME_OF[v2])
    b["freq"] = a["freq"]
    st.add(None, a)
    st.add("while", b, same=False)
    if st.n() < size:
        st.add("and_also", _like(coref(other, st.rng), st.rng.choice([n for n in PREF[v2] if n != n2])), same=True)
    return st.spec()


def teacher_day(st, size):
    """my mother teaches english at school , and she also teaches math , so she is busy every day ..."""
    st.tense = "p"
    s1, s2 = st.rng.sample(("english", "chinese", "math", "history"), 2)
    t = {"type": "act", "v": "teach", "tense": "p", "neg": False, "q": None, "subj": st.agent, "obj": _np(s1),
         "place": "school"}
    st.add(None, t)
    st.add("and_also", {"type": "act", "v": "teach", "tense": "p", "neg": False, "q": None, "subj": st.he(),
                        "obj": _np(s2)})
    if st.n() < size:
        st.add("so", feel(st, "busy", tense="p"))
    return st.spec()
