"""Multi-clause sentences that make sense: small stories (the meaning side of chains; grammar renders them).

Every chain has one agent (later clauses refer back to it with a pronoun), one tense, and its time
phrase in the first clause, so time runs forward. Connectives mean what they say:

* so / because: a feeling and the action it explains (i was hungry , so i went to the restaurant);
* then: the next step of an outing (..., and then she read a book);
* and + 还: one more thing done at the same place (..., and she bought two cakes -> ， 她 还 买 了 ...);
* but: a real contrast, the same verb with another object or another person (..., but he did not buy
  bananas; lucy can swim , but her brother can not swim).
"""

from __future__ import annotations

from helpers.corpus.lexicon import NOUNS, VERBS
from helpers.corpus.sampler import (
    NEAR_TIMES,
    OBJECTS,
    coref,
    sample_act,
    sample_clause,
    sample_object,
    sample_person,
)

FOOD = tuple(k for k, n in NOUNS.items() if n.cls & {"food", "massfood"} and "animal" not in n.cls)
GROCERIES = tuple(k for k in FOOD if k not in ("rice", "noodles"))  # 米饭 / 面条 are cooked, not bought
DRINK = tuple(k for k, n in NOUNS.items() if "drink" in n.cls and k != "soup")
SPORTS = ("football", "basketball", "tennis")
THINGS_TO_BUY = ("book", "pen", "pencil", "bag", "umbrella", "hat", "shirt", "coat", "dress", "cup", "gift",
                 "kite", "ball", "map", "flower")
ANIMALS = ("panda", "tiger", "elephant", "monkey", "bird", "horse")
# place -> activities there: (verb, allowed objects or None for any object the verb takes)
ACTIVITIES = {
    "library": (("read", ("book", "magazine", "newspaper", "novel")), ("study", None), ("write", ("letter",))),
    "park": (("play", SPORTS), ("run", None), ("walk", None), ("draw", ("tree", "flower"))),
    "restaurant": (("eat", ("noodles", "rice", "meat", "fish", "sandwich", "cake", "egg")), ("drink", DRINK)),
    "market": (("buy", GROCERIES),),
    "supermarket": (("buy", GROCERIES + DRINK),),
    "store": (("buy", THINGS_TO_BUY),),
    "pool": (("swim", None),),
    "beach": (("swim", None), ("walk", None), ("run", None)),
    "cinema": (("watch", ("movie",)),),
    "school": (("study", None), ("play", SPORTS)),
    "office": (("work", None), ("write", ("letter",))),
    "zoo": (("see", ANIMALS),),
    "hospital": (("visit", ("grandmother", "grandfather", "uncle", "aunt")),),
    "home": (("cook", None), ("sleep", None), ("watch", ("tv",)), ("read", None), ("clean", ("room", "house"))),
}
OUTINGS = tuple(p for p in ACTIVITIES if p != "home")
REASON_PLACES = {"hungry": ("restaurant", "market", "home"), "thirsty": ("restaurant", "supermarket"),
                 "tired": ("home",)}
CONTRAST_VERBS = {"buy", "eat", "drink", "read", "see", "play", "study"}
SAME_KIND = ({"food", "massfood"}, {"drink"}, {"readable"}, {"animal"}, {"sport"}, {"subject"})
TIRING = {"play", "run", "swim", "walk", "work", "clean", "dance"}  # activities after which one is tired
SKILL_PLACES = {"swim": ("pool", "beach"), "play": ("park",)}


def _pronoun_for(agent, rng):
    """One pronoun for the whole story (coref picks a gender at random for 'the teacher')."""
    pron = coref(agent, rng)
    return lambda: dict(pron)


def _tense_ok(v, tense):
    from helpers.corpus.lexicon import INTRANSITIVE

    return tense in (VERBS[v][8] if v in VERBS else INTRANSITIVE[v][6])


def _base(v):
    return v.split("_")[0]  # play / play_i, study / study_i are the same activity


def _activity(rng, place, subj, tense, rich, exclude=(), only=None):
    """An action at ``place`` by ``subj`` in ``tense`` (no time or place phrase of its own), or None.

    ``only`` restricts the objects (a thirsty shopper buys drinks)."""
    bases = {_base(x) for x in exclude}
    opts = [(v, objs) for v, objs in ACTIVITIES[place] if _base(v) not in bases and _tense_ok(v, tense)]
    if not opts:
        return None
    v, objs = rng.choice(opts)
    if only is not None and objs is not None:
        objs = tuple(o for o in objs if o in only) or objs
    if rich and v in ("buy", "eat", "drink") and objs is not None and len(objs) > 1 and rng.random() < 0.35:
        act = sample_act(rng, rich, subj=subj, verb=v, question=False, tense=tense, neg=False)
        for key in ("time", "freq", "place"):
            act.pop(key, None)
        a, b = rng.sample(objs, 2)  # three apples and a bottle of milk -> 三 个 苹果 和 一 瓶 牛奶
        act["obj"] = {"k": "coord", "items": [_counted(rng, a, v), _counted(rng, b, v)]}
        return act
    act = sample_act(rng, rich, subj=subj, verb=v, question=False, tense=tense, neg=False)
    for key in ("time", "freq", "place"):
        act.pop(key, None)
    if objs is not None and "obj" in act:
        act["obj"] = _object_among(rng, v, tense, objs, rich)
    _first_mention(act.get("obj"))
    return act


def _counted(rng, n, v):
    """A counted noun phrase for a shopping or meal list: two apples, a bottle of milk, bread."""
    noun = NOUNS[n]
    if noun.mass:
        conts = [c for c in noun.conts if v != "buy" or c == "bottle"]
        if not conts:
            return {"k": "noun", "n": n, "d": "bare"}
        return {"k": "noun", "n": n, "d": rng.choice(("a", "a", "num")), "num": 2, "cont": rng.choice(conts)}
    return {"k": "noun", "n": n, "d": rng.choice(("a", "num")), "num": rng.randint(2, 3)}


def _first_mention(obj):
    """A story introduces its things: a cake, two bottles of milk, bread (not "that cake", "your egg")."""
    if not obj or obj["k"] != "noun" or "kin" in NOUNS[obj["n"]].cls or obj["n"] in ("tv", "piano", "guitar"):
        return
    if obj.get("d") in ("the", "this", "that", "these", "those", "poss"):
        obj["d"] = "bare" if NOUNS[obj["n"]].mass else "a"
        for key in ("poss", "rel", "pl"):
            obj.pop(key, None)
        if obj.get("adj") and NOUNS[obj["n"]].mass:
            obj.pop("adj")
    if obj.get("adj") == "old":  # nobody buys "an old shirt" in a story
        obj.pop("adj")
    if obj.get("d") == "num":
        obj["num"] = min(obj["num"], 2 if obj.get("cont") else 3)  # nobody drinks five bottles of milk at dinner


def _object_among(rng, v, tense, objs, rich, neg=False):
    for _ in range(8):
        o = sample_object(rng, v, tense, neg, None, rich)
        if o["k"] == "noun" and o["n"] in objs:
            return o
    n = rng.choice(objs)
    noun = NOUNS[n]
    if "kin" in noun.cls:
        return {"k": "noun", "n": n, "d": "poss", "poss": ("pron", rng.choice(("i", "he", "she", "we", "they")))}
    return {"k": "noun", "n": n, "d": "bare" if (noun.mass or tense == "p" or neg) else "a", "drop": neg}


def _first_time(rng, tense, freq_ok=True):
    if tense == "p":
        return ("freq", rng.choice(("often", "usually", "sometimes"))) if freq_ok and rng.random() < 0.5 else \
            ("time", rng.choice(("every_day", "every_morning", "every_evening", "every_sunday", "on_weekends")))
    return ("time", rng.choice(NEAR_TIMES[tense]))


NIGHT_PLACES = {"restaurant", "cinema", "supermarket", "store", "home", "hospital"}
NIGHT = {"last_night", "tonight"}


def _go(rng, subj, tense, place, rich, time=True):
    go = sample_act(rng, rich, subj=subj, verb="go", question=False, tense=tense, neg=False)
    go["dest"] = place
    go.pop("freq", None)
    go.pop("time", None)
    if time:
        key, val = _first_time(rng, tense)
        if val in NIGHT and place not in NIGHT_PLACES:  # not "went to the zoo last night"
            val = rng.choice(("yesterday", "this_morning") if tense == "d" else ("tomorrow", "today"))
        go[key] = val
    if place == "home":
        go.pop("by", None)
    if go.get("by") == "train" and place not in ("beach", "museum", "zoo"):  # no train to the cinema
        go["by"] = "bus"
    return go


def _contrast(rng, act, he):
    """The same verb with another object of the same kind, negated: ..., but he did not buy bananas."""
    v = act["v"]
    obj = act.get("obj")
    if v not in CONTRAST_VERBS or not obj or obj["k"] != "noun":
        return None
    kind = next((k for k in SAME_KIND if NOUNS[obj["n"]].cls & k), None)
    if kind is None:
        return None
    pool = [n for n in OBJECTS[v] if n != obj["n"] and NOUNS[n].cls & kind and n not in ("rice", "noodles")]
    if not pool:
        return None
    n = rng.choice(pool)
    other = {"k": "noun", "n": n, "d": "the" if "instrument" in NOUNS[n].cls else "bare"}
    return {"type": "act", "v": v, "tense": act["tense"], "neg": True, "q": None, "subj": he(), "obj": other}


def outing(rng, rich, n_clauses):
    """[reason , so] go to PLACE , and then ACTIVITY [, and ACTIVITY] [, but not ...] [, so tired , and home]."""
    agent = sample_person(rng, rel=rich and rng.random() < 0.5)  # the doctor who helped my mother went ...
    if agent.get("rel") is None:
        agent.pop("rel", None)
    he = _pronoun_for(agent, rng)
    tense = rng.choice("ddddff" if n_clauses > 2 else "dddffp")
    items = []
    if rng.random() < 0.3 and tense != "p":
        adj = rng.choice(tuple(REASON_PLACES))
        place = rng.choice(REASON_PLACES[adj])
        cop = {"type": "cop_adj", "subj": agent, "adj": adj, "tense": "d" if tense == "d" else "p", "neg": False,
               "q": None, "time": rng.choice(NEAR_TIMES["d"]) if tense == "d" else rng.choice(("today", None))}
        items += [cop, "so", _go(rng, he(), tense, place, rich, time=False)]
        exclude = {"hungry": {"sleep", "watch", "read", "clean", "drink"}, "thirsty": {"eat", "buy"},
                   "tired": {"cook", "clean", "read", "watch"}}[adj]
        only = DRINK if adj == "thirsty" else FOOD if adj == "hungry" else None
        if place == "supermarket" and adj == "thirsty":
            exclude = set()
    elif n_clauses == 2 and rng.random() < 0.35:  # read a book in the library , and he wrote a letter -> 还
        place = rng.choice([p for p in ACTIVITIES if sum(_tense_ok(v, tense) for v, _ in ACTIVITIES[p]) > 1])
        first = _activity(rng, place, agent, tense, rich)
        first["place"] = place
        key, val = _first_time(rng, tense)
        first[key] = val
        more = _activity(rng, place, he(), tense, rich, {first["v"]})
        more["also"] = True
        return {"chain": [first, "and", more]}
    else:
        place = rng.choice([p for p in OUTINGS if any(_tense_ok(v, tense) for v, _ in ACTIVITIES[p])])
        items.append(_go(rng, agent, tense, place, rich))
        exclude, only = set(), None
    last = _activity(rng, place, he(), tense, rich, exclude, only)
    items += ["and" if "so" in items else "then", last]  # so he went to the restaurant , and he ate ...
    done = {last["v"]}
    while len(items) < 2 * n_clauses - 1:
        more = None
        if "and" not in items[1:] and rng.random() < 0.6:  # one 还 per story is enough
            more = _activity(rng, place, he(), tense, rich, exclude | done, only)
        if more is not None:
            more["also"] = True
            done.add(more["v"])
            items += ["and", more]
            last = more
            continue
        contrast = _contrast(rng, last, he)  # about the last thing done: ..., but he did not buy bananas
        if contrast is None or rng.random() < 0.65 or "so" in items:  # at most two connectives
            break
        items += ["but", contrast]
        break
    if tense == "d" and _base(last["v"]) in TIRING and "so" not in items and len(items) + 4 <= 2 * n_clauses - 1:
        # ..., and then he played football , so he was tired , and he went home .
        tired = {"type": "cop_adj", "subj": he(), "adj": "tired", "tense": "d", "neg": False, "q": None}
        home = _go(rng, he(), "d", "home", rich, time=False)
        items += ["so", tired, "and", home]
    return {"chain": items}


def two_outings(rng, rich, n_clauses):
    """A and a relative of A go to different places: tom went to the park , and he played football , but
    his sister went to the library , and she read a book (but = the contrast of the two outings; the
    "and" clauses are joined by a bare ， in Chinese, so "but" is the one connective)."""
    agent = sample_person(rng, rel=False)
    while agent["k"] == "coord":  # not "emma and your father ..., but their father ..."
        agent = sample_person(rng, rel=False)
    he = _pronoun_for(agent, rng)
    tense = rng.choice("dddf")
    kin = rng.choice([k for k in ("brother", "sister", "mother", "father", "son", "daughter", "friend", "grandmother")
                      if k != agent.get("n") and not (agent.get("n", "").startswith("grand") and k in ("mother", "father"))])
    # not "your brother ..., but his brother ...", nor "my grandfather ..., but his father ..."
    other = {"k": "noun", "n": kin, "d": "poss", "poss": ("pron", he()["p"])}
    she = _pronoun_for(other, rng)
    places = [p for p in OUTINGS if any(_tense_ok(v, tense) for v, _ in ACTIVITIES[p])]
    p1 = rng.choice(places)
    go1 = _go(rng, agent, tense, p1, rich)
    if go1.get("time") in NIGHT:  # the time holds for both: both places are open at night
        places = [p for p in places if p in NIGHT_PLACES]
    p2 = rng.choice([p for p in places if p != p1])
    act1 = _activity(rng, p1, he(), tense, rich)
    items = [go1, "and", act1]  # , and he played football -> ， 他 踢 了 足球
    go2 = _go(rng, other, tense, p2, rich, time=False)
    items += ["but", go2]
    act2 = _activity(rng, p2, she(), tense, rich, exclude={act1["v"]})  # the contrast needs another activity
    if n_clauses > 3 and act2 is not None:
        items += ["and", act2]
    return {"chain": items}


PREFERENCE = {"eat": FOOD, "drink": DRINK, "play": SPORTS, "play ": ("piano", "guitar"),
              "read": ("book", "newspaper", "magazine", "novel")}  # x and y of one kind: tennis / football


HABIT_PLACES = {"eat": ("home",), "drink": ("home",),  # not "eats watermelons at the restaurant every day"
                "play": ("park", "school"),
                "play ": ("home",), "read": ("home", "library")}


def preference(rng, rich, n_clauses):
    """AGENT likes X , but does not like Y [, so AGENT often Vs X]."""
    agent = sample_person(rng, rel=False)
    he = _pronoun_for(agent, rng)
    kind = rng.choice(tuple(PREFERENCE))
    x, y = rng.sample(PREFERENCE[kind], 2)
    v = kind.strip()

    def np_(n):
        noun = NOUNS[n]
        return {"k": "noun", "n": n, "d": "the" if "instrument" in noun.cls else "bare"}

    like = {"type": "act", "v": "like", "tense": "p", "neg": False, "q": None, "subj": agent, "obj": np_(x)}
    dislike = {"type": "act", "v": "like", "tense": "p", "neg": True, "q": None, "subj": he(), "obj": np_(y)}
    items = [like, "but", dislike]
    if n_clauses > 2:
        act = {"type": "act", "v": v, "tense": "p", "neg": False, "q": None, "subj": he(), "obj": np_(x)}
        key, val = _first_time(rng, "p")
        act[key] = val
        act["place"] = rng.choice(HABIT_PLACES[kind])  # so she often eats apples at home
        items += ["so", act]
    return {"chain": items}


def ability(rng, rich, n_clauses):
    """AGENT can V , but OTHER can not V [, so OTHER will not go to PLACE tomorrow]."""
    agent = sample_person(rng, rel=False)
    other = sample_person(rng, rel=False)
    for _ in range(8):  # another person, named: "but she can not swim" would leave "she" unexplained
        if other["k"] != "pron" and other.get("n") != agent.get("n") and other["k"] != agent["k"]:
            break
        other = sample_person(rng, rel=False)
    v = rng.choice(("swim", "play", "play", "sing", "dance", "cook", "speak"))
    obj = None
    if v == "play":
        obj = {"k": "noun", "n": rng.choice(SPORTS + ("piano", "guitar")), "d": "bare"}
        if obj["n"] in ("piano", "guitar"):
            obj["d"] = "the"
    elif v == "speak":
        obj = {"k": "noun", "n": rng.choice(("english", "chinese")), "d": "bare"}
    can = {"type": "act", "v": v, "tense": "c", "neg": False, "q": None, "subj": agent, "obj": obj}
    cannot = {"type": "act", "v": v, "tense": "c", "neg": True, "q": None, "subj": other, "obj": obj}
    items = [can, "but", cannot]
    if n_clauses > 2 and (v == "swim" or (obj and obj["n"] in SPORTS)):
        place = rng.choice(SKILL_PLACES[v])
        go = _go(rng, coref(other, rng), "f", place, rich, time=False)
        go["neg"] = True
        go.pop("by", None)
        go["time"] = rng.choice(("tomorrow", "today"))
        items += ["so", go]
    return {"chain": items}


def cancelled(rng, rich, n_clauses):
    """AGENT did not go to PLACE TIME , because AGENT was tired [, so AGENT slept / cooked at home]."""
    agent = sample_person(rng, rel=False)
    he = _pronoun_for(agent, rng)
    tense = rng.choice("df")
    place = rng.choice(("school", "park", "office", "library", "cinema", "pool", "zoo", "museum"))
    go = _go(rng, agent, tense, place, rich)
    go["neg"] = True
    go.pop("by", None)
    adj = rng.choice(("tired", "busy")) if place != "office" else "tired"
    cop = {"type": "cop_adj", "subj": he(), "adj": adj, "tense": "d" if tense == "d" else "p",
           "neg": False, "q": None}
    items = [go, "because", cop]
    if n_clauses > 2 and adj == "tired":
        act = _activity(rng, "home", he(), tense, rich,
                        exclude={"clean", "cook"})
        if act is not None:
            act["place"] = "home"
            items += ["so", act]
    return {"chain": items}


def sample_story(rng, n_clauses=2, rich=False):
    """A chain of 2-4 clauses about one agent (see the module docstring)."""
    r = rng.random()
    cut = (0.75, 0.85, 0.92) if rich else (0.6, 0.75, 0.87)  # long outings are often too short: draw more
    if rich and r < 0.35:
        return two_outings(rng, rich, n_clauses)
    if r < cut[0]:
        return outing(rng, rich, n_clauses)
    if r < cut[1]:
        return preference(rng, rich, n_clauses)
    if r < cut[2]:
        return ability(rng, rich, n_clauses)
    return cancelled(rng, rich, n_clauses)


def sample_spec(rng, long=False):
    """One sentence spec: mostly single clauses for train/valid/test, 3-4 clause stories for 'long'."""
    if long:
        return sample_story(rng, rng.choice((3, 4, 5, 6)), rich=True)
    if rng.random() < 0.12:
        return sample_story(rng, 2)
    return sample_clause(rng)
