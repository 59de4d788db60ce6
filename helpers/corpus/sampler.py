"""Draw random sentence specs for the toy corpus (the meaning side; ``helpers.corpus.grammar`` renders them).

Selectional restrictions live here: subjects of actions are people, only food is eaten, only
readable things are read, stative verbs (like, have, want, know, ...) take no 了 and no progressive,
"see" and "meet" are told in the past, and so on. A spec is a plain dict (see ``helpers.corpus.grammar``).
"""

from __future__ import annotations

from helpers.corpus.learner import (  # corpus 3.0: learner words and the short-sentence fixes
    _learner_adjuncts,
    _pronoun_possessor,
    _recipient,
    _spouse,
    sample_exist,
    sample_weather,
)
from helpers.corpus.lexicon import (
    ADJECTIVES,
    COLORS_OF,
    FAR_TIMES,
    GO_PLACES,
    INTRANSITIVE,
    KIN,
    LOCATIVES,
    NAMES,
    NEG_BAD_ADJ,
    NO_VERY_ADJ,
    NOUNS,
    PEOPLE,
    PROFESSIONS,
    TIMES,
    VERBS,
)

PRONS = ("i", "you", "he", "she", "we", "they")
NAME_KEYS = tuple(NAMES)
PERSON_NOUNS = tuple(PROFESSIONS) + tuple(PEOPLE)
KIN_NOUNS = tuple(KIN)
HUMAN_ADJ = tuple(a for a, v in ADJECTIVES.items() if v[1] == "human")
THING_ADJ = tuple(a for a, v in ADJECTIVES.items() if v[1] != "human")
LIKE_CLASSES = {"animal", "food", "massfood", "drink", "readable", "sport", "subject", "likeable", "watchable",
                "instrument"}
STATIVE_OBJ = {
    "like": LIKE_CLASSES,
    "love": {"pet", "kin"},
    "have": {"pet", "vehicle", "kin", "readable", "needed", "havetime"},
    "want": {"food", "drink", "vehicle", "needed", "readable"},
}
TIMES_BY_TENSE = {t: tuple(k for k, v in TIMES.items() if t in v[2]) for t in "pdfg"}
ADJ_NOUNS = tuple(k for k, v in NOUNS.items() if any(ADJECTIVES[a][2] in v.cls for a in THING_ADJ) and not v.mass)
SIBLINGS = ("brother", "sister", "son", "daughter", "uncle", "aunt")
PLURAL_PEOPLE = tuple(k for k, n in NOUNS.items() if "plural_ok" in n.cls)  # the children, these people
PERSON_WHO_VERBS = ("see", "meet", "help", "know", "wait_for", "visit", "like", "love")


def _objects_for(vkey):
    cls = STATIVE_OBJ.get(vkey) or set(VERBS[vkey][6].split())
    return tuple(k for k, n in NOUNS.items() if n.cls & cls and not (vkey != "like" and "likeable" in n.cls))


OBJECTS = {v: _objects_for(v) for v in VERBS}
TRANS = tuple(v for v in VERBS)
ACTION_TRANS = tuple(v for v in VERBS if "s" not in VERBS[v][9])
STATIVE = tuple(v for v in VERBS if "s" in VERBS[v][9])
INTRANS = tuple(INTRANSITIVE)


# --------------------------------------------------------------------------- noun phrases
def sample_person(rng, rel=True, plural_ok=True):
    """A human noun phrase for a subject: pronoun, name, kin with possessor, the/this N, relative."""
    r = rng.random()
    if r < 0.33:
        p = rng.choice(PRONS if plural_ok else ("i", "you", "he", "she"))
        return {"k": "pron", "p": p}
    if r < 0.58:
        return {"k": "name", "n": rng.choice(NAME_KEYS)}
    if r < 0.78:
        return _spouse({"k": "noun", "n": rng.choice(KIN_NOUNS + ("friend", "teacher")), "d": "poss",
                        "poss": _possessor(rng)})
    if r < 0.84:
        return {"k": "noun", "n": rng.choice(PERSON_NOUNS), "d": rng.choice(("the", "the", "this", "that"))}
    if r < 0.88:  # the children -> 孩子 们, those students -> 那些 学生
        n = rng.choice(PLURAL_PEOPLE)  # these people -> 这些 人 (not "the people" -> 人 们)
        return {"k": "noun", "n": n, "d": rng.choice(("these", "those") if n == "person" else ("the", "the", "these", "those")),
                "pl": True}
    if r < 0.93 or not rel:  # anna and lily -> 安娜 和 莉莉
        return sample_coord_people(rng)
    head = rng.choice(PERSON_NOUNS)
    return {"k": "noun", "n": head, "d": "the", "rel": sample_rel(rng, head)}


def sample_coord_people(rng):
    """Two people joined by and: two names, or a name and a kin noun with a possessor."""
    a, b = rng.sample(NAME_KEYS, 2)
    if rng.random() < 0.5:
        return {"k": "coord", "items": [{"k": "name", "n": a}, {"k": "name", "n": b}]}
    his = "he" if NAMES[a][1] == "m" else "she"  # jack and his sister
    kin = _spouse({"k": "noun", "n": rng.choice(KIN_NOUNS), "d": "poss", "poss": ("pron", rng.choice(("i", "you", his)))})
    return {"k": "coord", "items": [{"k": "name", "n": a}, kin]}


# a profession defined by the verb makes a tautological relative: "the singer who sings", "the cook who cooks"
TAUTOLOGY = {"singer": "sing", "cook": "cook", "writer": "write", "teacher": "teach", "student": "study_i",
             "worker": "work", "farmer": "work", "driver": "drive"}


def _possessor(rng):
    if rng.random() < 0.7:
        return ("pron", rng.choice(PRONS))
    return ("name", rng.choice(NAME_KEYS))


def sample_rel(rng, head, exclude=()):
    """A relative clause that fits the head noun (never with a verb of ``exclude``: no "know the nurse who you know")."""
    noun = NOUNS[head]
    exclude = set(exclude) | {x + "_i" for x in exclude} | {x + "_t" for x in exclude} | \
        {x.split("_")[0] for x in exclude}
    if "human" in noun.cls and rng.random() < 0.6:  # subject relative: the girl who sings in the park
        r = rng.random()
        if r < 0.2:  # past: the doctor who helped my mother -> 帮助 我 妈妈 的 那 位 医生
            v = rng.choice([x for x in ("help", "visit", "meet", "see") if x not in exclude] or ["help"])
            o = _spouse({"k": "noun", "n": rng.choice(KIN_NOUNS), "d": "poss", "poss": ("pron", rng.choice(PRONS))})
            if rng.random() < 0.4:
                o = {"k": "name", "n": rng.choice(NAME_KEYS)}
            return {"t": "s", "v": v, "tense": "d", "o": o}
        if r < 0.5:
            v = rng.choice([x for x in ("sing", "dance", "work", "swim", "run", "walk", "study_i")
                            if TAUTOLOGY.get(head) != x and x not in exclude])
            tense = "d" if rng.random() < 0.3 else "p"
            return {"t": "s", "v": v, "tense": tense, "place": rng.choice(INTRANSITIVE[v][5].split())}
        v = rng.choice([x for x in ("like", "sell", "read", "play", "teach") if TAUTOLOGY.get(head) != x
                        and x not in exclude])
        cands = [n for n in OBJECTS[v] if "human" not in NOUNS[n].cls and "kin" not in NOUNS[n].cls]
        o = rng.choice(cands)
        d = "the" if NOUNS[o].cls & {"instrument"} else "bare"
        return {"t": "s", "v": v, "tense": "p", "o": {"k": "noun", "n": o, "d": d}}
    verbs = [v for v in ("see", "buy", "read", "write", "draw", "find", "lose", "like", "want", "meet", "know")
             if head in OBJECTS[v] and v not in exclude]
    if not verbs:
        return None
    v = rng.choice(verbs)
    s = {"k": "pron", "p": rng.choice(PRONS)} if rng.random() < 0.75 else {"k": "name", "n": rng.choice(NAME_KEYS)}
    return {"t": "o", "s": s, "v": v, "tense": "p" if "s" in VERBS[v][9] else "d"}


def _adj_for(rng, noun, mono_only=False):
    cands = [a for a in THING_ADJ if ADJECTIVES[a][2] in noun.cls and (not mono_only or ADJECTIVES[a][1] == "mono")
             and (ADJECTIVES[a][1] != "color" or a in COLORS_OF.get(noun.key, (a,)))]
    return rng.choice(cands) if cands else None


def sample_object(rng, v, tense, neg, q, rich=False):
    """An object noun phrase for verb v, with a determiner that fits tense, negation and question."""
    if v in ("like", "want", "drink") and q == "yn" and tense == "p" and rng.random() < 0.5:
        np = sample_coord_object(rng, v)  # do you want tea or coffee ? -> 你 想要 茶 还是 咖啡 ？
        return dict(np, conj="or", alt=True)
    if v in ("buy", "eat", "drink") and tense == "f" and not neg and q is None and rng.random() < 0.15:
        return dict(sample_coord_object(rng, v), conj="or")  # 我 会 买 苹果 或者 香蕉
    if v in COORD_VERBS and not neg and q is None and rng.random() < (0.12 if rich else 0.07):
        return sample_coord_object(rng, v)
    n = rng.choice(OBJECTS[v])
    noun = NOUNS[n]
    if "human" in noun.cls and rng.random() < 0.35 and v in PERSON_WHO_VERBS:
        if rng.random() < 0.5:
            return {"k": "pron", "p": rng.choice(PRONS)}
        return {"k": "name", "n": rng.choice(NAME_KEYS)}
    if noun.mass:
        if noun.cls & {"instrument"}:
            return {"k": "noun", "n": n, "d": "the"}
        conts = [x for x in noun.conts if v != "buy" or x == "bottle"]  # one buys bottles, not glasses of milk
        if conts and v in ("drink", "eat", "buy", "want") and not neg and (tense != "p" or rng.random() < 0.3):
            d = "a" if rng.random() < 0.6 else "num"
            if tense == "g":  # i am drinking a cup of tea (not three bottles at once)
                d = "a"
            return {"k": "noun", "n": n, "d": d, "num": rng.randint(2, 3), "cont": rng.choice(conts)}
        return {"k": "noun", "n": n, "d": "bare"}
    if n in ("door", "window"):  # open the door -> 打开 门, close that window -> 关上 那 扇 窗户
        return {"k": "noun", "n": n, "d": rng.choice(("the", "the", "the", "this", "that"))}
    if n == "tv":
        return {"k": "noun", "n": n, "d": "bare"}
    if "kin" in noun.cls:
        if v == "have":  # i have two sisters; not "i have a mother"
            n = n if n in SIBLINGS else rng.choice(SIBLINGS)
            d = rng.choice(("a", "num"))
            return {"k": "noun", "n": n, "d": d, "num": rng.randint(2, 4), "drop": neg or q == "yn"}
        return _spouse({"k": "noun", "n": n, "d": "poss", "poss": _possessor(rng)})
    # determiner choice
    if v == "watch":
        dets = ("bare",) if tense == "p" else ("a", "the", "this", "that")
    elif v in ("like", "love"):  # likes apples, that movie, his dog; not "likes lily 's apple"
        dets = ("bare", "bare", "bare", "the", "this", "that") + (() if noun.cls & {"food", "drink"} else ("poss",))
    elif v in ("have", "want", "need"):
        dets = ("a", "a", "num") if not neg else ("a",)
    elif v in ("open", "close"):
        dets = ("the", "poss", "this", "that")
    elif v == "sell":  # sell oranges, sold two bikes; not "sell my banana"
        dets = ("bare",) if tense in "pg" else ("a", "num", "bare")
    elif v == "draw":  # draw a tree, draw three birds; not "draw my bus"
        dets = ("bare",) if tense == "p" else ("a", "num") if tense == "g" else ("a", "a", "num", "bare")
    elif v in ("find", "lose", "look_for"):
        dets = ("the", "poss", "poss", "a", "this")
    elif n == "person":  # this person -> 这 个 人; not "the person" -> 人
        dets = ("this", "that") + (("a", "a", "these", "those") if v in ("see", "meet") else ())
    elif "human" in noun.cls:
        dets = ("the", "this", "that") + (("a", "a", "these", "those") if v in ("see", "meet") else ())
    else:
        dets = ["a", "a", "num", "the", "this", "that", "poss", "these", "those", "bare"]
        if v in ("buy", "sell", "eat", "drink"):  # not "buy his sandwich"
            dets.remove("poss")
        if tense == "d" and not neg:
            dets.remove("bare")
        if neg or q is not None:
            dets.remove("num")
        if tense == "p":  # habits are about kinds of things: not "she reads that letter every day"
            dets = ["bare"]
        if v == "write":
            dets = [d for d in dets if d != "num"]
        if tense == "g":
            dets = [d for d in dets if d != "bare"]
    d = rng.choice(dets)
    np = {"k": "noun", "n": n, "d": d}
    if d == "num":
        np["num"] = rng.randint(2, 4) if v in ("have", "want", "need", "eat") else rng.randint(2, 10)
    elif d == "poss":
        np["poss"] = _possessor(rng)
    if d == "a" and (neg or (v == "have" and q == "yn")):
        np["drop"] = True
    if v == "sing_t" and d == "poss":  # sing a song, this song; not "sing our song"
        np["d"] = "this"
        np.pop("poss", None)
    if "human" not in noun.cls and v not in ("write", "sing_t", "open", "close") and \
            (d != "bare" or v in ("like", "love", "want")) and rng.random() < (0.4 if rich else 0.22):
        adj = _adj_for(rng, noun, mono_only=d == "poss")
        if adj and adj != v:  # not "clean a clean room"
            np["adj"] = adj
    if d == "the" and "adj" not in np and rng.random() < (0.3 if rich else 0.12):
        verbs = [x for x in ("see", "buy", "read", "write", "draw", "find", "lose", "like", "want")
                 if n in OBJECTS[x] and x != v]
        if verbs:
            rel = sample_rel(rng, n, exclude=(v,))
            if rel:
                np["rel"] = rel
    return np


COORD_VERBS = {"like": "bare", "eat": "bare", "buy": "bare", "sell": "bare", "drink": "bare", "want": "a",
               "have": "a"}


def sample_coord_object(rng, v):
    """bananas and apples -> 香蕉 和 苹果 (bare), a dog and a cat -> 一 只 狗 和 一 只 猫."""
    d = COORD_VERBS[v]
    cands = [n for n in OBJECTS[v] if "human" not in NOUNS[n].cls and "kin" not in NOUNS[n].cls
             and n not in ("door", "window", "tv") and not (d == "a" and NOUNS[n].mass)]
    shared = {"food", "massfood", "drink", "animal", "readable", "sport", "vehicle", "subject", "instrument"}
    a = rng.choice([n for n in cands if NOUNS[n].cls & shared] or cands)
    b = rng.choice([n for n in cands if n != a and NOUNS[n].cls & NOUNS[a].cls & shared]
                   or [n for n in cands if n != a])
    items = [{"k": "noun", "n": x, "d": "the" if NOUNS[x].cls & {"instrument"} else d} for x in (a, b)]
    return {"k": "coord", "items": items}


# --------------------------------------------------------------------------- clauses
MOMENTARY = {"fly", "look_at", "stay", "come", "give", "bring", "answer", "borrow", "cry", "laugh", "get_up", "run", "swim", "dance", "sing", "buy", "watch", "wait_for", "walk", "sleep", "cook", "play_i", "go", "open", "close", "find", "lose", "wash", "look_for", "clean", "drink", "eat", "see", "meet"}
NEAR_TIMES = {"d": ("yesterday", "last_night", "this_morning", "today"), "f": ("tomorrow", "tonight", "today"),
              "p": ("every_day",), "g": ("now",)}


def _time(rng, tense, p):
    opts = TIMES_BY_TENSE.get(tense, ())
    return rng.choice(opts) if opts and rng.random() < p else None


def _childlike(np):
    return np["k"] == "name" or (np["k"] == "noun" and np["n"] in ("child", "boy", "girl", "son", "daughter"))


def _zh_verb(v):
    return VERBS[v][5] if v in VERBS else INTRANSITIVE[v][4] if v in INTRANSITIVE else v


def sample_act(rng, rich=False, subj=None, verb=None, question=True, tense=None, neg=None):
    """A clause with an action verb: transitive, stative, intransitive or go."""
    if verb is None:
        r = rng.random()
        verb = rng.choice(ACTION_TRANS if r < 0.5 else STATIVE if r < 0.62 else INTRANS if r < 0.83
                          else ("go", "go", "go", "come"))
    if verb in VERBS:
        tenses = VERBS[verb][8]
        places = VERBS[verb][7].split()
        flags = VERBS[verb][9]
    elif verb in ("go", "come"):
        tenses, places, flags = "pdf", [], ""
    else:
        tenses, places, flags = INTRANSITIVE[verb][6], INTRANSITIVE[verb][5].split(), INTRANSITIVE[verb][7]
    tense = tense or rng.choice(tenses)
    if tense not in tenses:
        tense = tenses[0]
    c = {"type": "act", "v": verb, "tense": tense}
    if neg is None:
        neg = tense != "g" and rng.random() < 0.2 and not (verb == "visit" and tense == "p")  # no 不看望
    c["neg"] = neg
    q = None
    if question and not neg and rng.random() < 0.28:
        opts = ["yn", "yn", "who_s"]
        if verb in VERBS and "w" in flags and tense != "c":
            opts += ["what", "what"]
        if "h" in flags and tense != "c":
            opts.append("who_o")
        if (places or verb == "go") and tense in "pdf" and verb != "stay":
            opts += ["where", "where"]
        if tense == "p" and ("s" not in flags or verb == "like") and verb not in ("know", "have", "need"):
            opts.append("why")
        if tense == "p" and verb in ("go", "visit", "study", "play", "swim", "run", "walk"):
            opts.append("when")
        if tense == "p" and verb in ("go", "come"):
            opts += ["how", "how"]
        if verb in ("give", "get_up"):  # no "who gives ... ?" / "does she get up ?" without a time
            opts = ["yn"]
        if verb in ("have", "buy", "eat", "see", "draw") and tense in "pd":
            opts.append("howmany")
        q = rng.choice(opts)
    c["q"] = q
    c["subj"] = subj or sample_person(rng, rel=q is None)
    if verb == "play_i" and subj is None and not _childlike(c["subj"]):  # 玩 is what children do
        c["subj"] = {"k": "noun", "n": rng.choice(("child", "boy", "girl")), "d": rng.choice(("the", "this", "that"))}
    s = c["subj"]
    if s["k"] == "noun" and TAUTOLOGY.get(s["n"], "-").split("_")[0] == verb.split("_")[0]:  # the cook can cook
        c["subj"] = {"k": "name", "n": rng.choice(NAME_KEYS)}
    rel = c["subj"].get("rel")
    if rel and rel["v"].split("_")[0] == verb.split("_")[0]:  # not "the nurse who sings ... is singing"
        del c["subj"]["rel"]
    if q in ("yn", "what", "where", "when", "why", "howmany", "who_o", "how") and subj is None and rng.random() < 0.5:
        c["subj"] = {"k": "pron", "p": "you"}
    if q not in (None, "who_s") and c["subj"] in ({"k": "pron", "p": "i"}, {"k": "pron", "p": "we"}):
        c["subj"] = {"k": "pron", "p": "you"}  # one asks others: not "do i buy books ?"
    if tense == "c" and q == "yn" and verb in ("open", "close") and subj is None:  # can i open the window ? -> 可以
        c["subj"] = {"k": "pron", "p": rng.choice(("i", "i", "we"))}
    # object / destination
    if verb in ("go", "come"):
        if q != "where":
            c["dest"] = rng.choice(GO_PLACES)
        if q == "how" and c["dest"] == "home":
            c["dest"] = "school"
        if q != "how" and rng.random() < 0.25 and c.get("dest") != "home":
            far = c.get("dest") in ("beach", "museum", "zoo")  # one takes the train to the beach, not to the store
            c["by"] = rng.choice(("bus", "car", "bike", "train", "foot") if far else ("bus", "car", "bike", "foot"))
    elif verb in VERBS:
        if q == "howmany":
            cands = [n for n in OBJECTS[verb] if not NOUNS[n].mass and "human" not in NOUNS[n].cls
                     and n not in ("door", "window", "tv")]
            c["obj"] = {"k": "noun", "n": rng.choice(cands), "d": "howmany"}
        else:
            c["obj"] = sample_object(rng, verb, tense, neg, q, rich)
            if q == "who_o" and "human" not in NOUNS.get(c["obj"].get("n"), NOUNS["cat"]).cls:
                c["q"] = q = "yn"
            if q == "what" and c["obj"]["k"] != "noun":
                c["q"] = q = "yn"
            o, s = c["obj"], c["subj"]
            if o["k"] == "pron" and s["k"] == "pron" and (o["p"] == s["p"] or {o["p"], s["p"]} <= {"i", "we"}):
                c["obj"] = {"k": "name", "n": rng.choice(NAME_KEYS)}
            if c["obj"]["k"] == "noun" and s["k"] == "noun" and c["obj"]["n"] == s["n"]:  # the cook saw the cooks
                c["obj"] = {"k": "name", "n": rng.choice(NAME_KEYS)}
            names = {x.get("n") for x in (s.get("items") or [s]) if x["k"] == "name"}
            if c["obj"]["k"] == "name" and c["obj"]["n"] in names:  # not "mike and anna visited mike"
                c["obj"] = {"k": "name", "n": rng.choice([n for n in NAME_KEYS if n not in names])}
            _pronoun_possessor(c["obj"], c["subj"])
            s_rel, o_rel = c["subj"].get("rel"), c["obj"].get("rel")
            if s_rel and o_rel and s_rel["v"].split("_")[0] == o_rel["v"].split("_")[0]:
                del c["obj"]["rel"]  # not "the singer who they met ... the artist who met jack"
            if verb == "give":  # give my mother a gift -> 给 我 妈妈 一 份 礼物
                c["io"] = _recipient(rng, c["subj"])
                _pronoun_possessor(c["obj"], c["io"])  # gave jack his ticket, not jack 's ticket
    # adjuncts
    stative = "s" in flags
    if places and q not in ("where",) and tense != "c" and rng.random() < (0.7 if rich else 0.45) and not stative:
        if verb == "see" and c["obj"]["k"] == "noun" and "animal" in NOUNS[c["obj"]["n"]].cls:
            places = ("zoo", "park", "garden")
        obj_n = c.get("obj", {}).get("n")
        if verb == "watch":  # tv at home, a movie at the cinema or at home
            places = ("cinema", "home") if obj_n == "movie" else ("home",)
        if verb == "buy":  # food at the market, a house or a car nowhere in particular
            cls = NOUNS[obj_n].cls if obj_n in NOUNS else frozenset()
            places = (("market", "supermarket", "store") if cls & {"food", "massfood", "drink"}
                      else () if cls & {"vehicle"} or obj_n == "house" else ("store",))
        if places:
            c["place"] = rng.choice(places)
    if not stative and q not in ("when",) and verb != "live":  # not "she lived in london after dinner"
        p_time = {"p": 0.55, "d": 0.75, "f": 0.85, "g": 0.25, "c": 0.0}[tense]
        if rich:
            p_time = min(1.0, p_time + 0.2)
        if tense == "p" and not neg and rng.random() < 0.35 and q is None:
            c["freq"] = rng.choice(("often", "usually", "always", "sometimes"))
        else:
            c["time"] = _time(rng, tense, p_time)
            if c["time"] in FAR_TIMES and verb in MOMENTARY:  # not "close the door next year"
                c["time"] = rng.choice(NEAR_TIMES[tense])
            if verb == "sleep" and tense == "p":  # not "he sleeps at home every week"
                c["time"] = None
                if q is None:
                    c["place"] = "home"
            if neg and c["time"] in ("every_week", "every_sunday") and verb in ("eat", "drink", "sleep", "wash"):
                c["time"] = None  # not "they do not drink water every week"
    if tense == "p" and not stative and c.get("obj", {}).get("d") in ("a", "num") and not (c.get("time") or c.get("freq")):
        c["time"] = rng.choice(TIMES_BY_TENSE["p"])
    _learner_adjuncts(rng, c, verb, tense, neg, q, free=subj is None)
    return c


def sample_copula(rng, rich=False, subj=None, adj=None, tense=None, question=True):
    r = rng.random()
    kind = "cop_adj" if (adj or subj) else ("cop_n" if r < 0.25 else "cop_adj" if r < 0.7 else "loc")
    neg = rng.random() < 0.2
    q = None
    if question and not neg and rng.random() < 0.25:
        q = "where" if kind == "loc" and rng.random() < 0.5 else "yn"
    c = {"type": kind, "neg": neg, "q": q, "tense": tense or "p"}
    if q is not None and subj is None:  # one asks about others: not "are we very tired ?"
        subj = sample_person(rng, rel=False)
        while subj["k"] == "pron" and subj["p"] in ("i", "we"):
            subj = sample_person(rng, rel=False)
    if kind == "cop_n":
        c["subj"] = subj or sample_person(rng, rel=False)
        if c["subj"]["k"] == "noun" and c["subj"]["n"] in (*PROFESSIONS, "boy", "girl", "child"):
            c["subj"] = {"k": "pron", "p": rng.choice(PRONS)}
        c["noun"] = rng.choice(tuple(PROFESSIONS))
        return c
    if kind == "cop_adj":
        human = adj in HUMAN_ADJ if adj else rng.random() < 0.45
        if human:
            c["subj"] = subj or sample_person(rng, rel=q is None)
            c["adj"] = adj or rng.choice(HUMAN_ADJ)
            if tense is None and c["adj"] != "tall" and rng.random() < 0.35:
                c["tense"] = "d"
                c["time"] = rng.choice(("yesterday", "last_night", "this_morning", "last_week"))
        elif rng.random() < 0.12:  # the soup is delicious -> 汤 很 好喝
            n = rng.choice(("tea", "coffee", "milk", "juice", "soup", "rice", "noodles", "bread", "meat"))
            c["adj"] = "delicious"
            d = rng.choice(("the", "the", "poss"))
            c["subj"] = {"k": "noun", "n": n, "d": d}
            if d == "poss":
                c["subj"]["poss"] = _possessor(rng)
        else:
            n = rng.choice(ADJ_NOUNS)
            c["adj"] = _adj_for(rng, NOUNS[n])
            d = rng.choice(("the", "the", "this", "that", "poss", "these", "those"))
            np = {"k": "noun", "n": n, "d": d}
            if d == "poss":
                np["poss"] = _possessor(rng)
            if d == "the" and q is None and rng.random() < (0.5 if rich else 0.25):
                rel = sample_rel(rng, n)
                if rel:
                    np["rel"] = rel
            c["subj"] = np
            if d in ("the", "this", "that") and not np.get("rel") and rng.random() < 0.1:
                c["subj"] = {"k": "pron", "p": "it"}  # it is very beautiful -> 它 很 漂亮
        if c["adj"] in NEG_BAD_ADJ:
            c["neg"] = False
        if not c["neg"] and ADJECTIVES[c["adj"]][1] != "color" and c["adj"] not in NO_VERY_ADJ and rng.random() < 0.2:
            c["very"] = True
        return c
    # location
    if rng.random() < 0.5:
        c["subj"] = sample_person(rng, rel=q is None)
        c["place"] = rng.choice(("library", "school", "park", "home", "hospital", "store", "office", "kitchen",
                                 "garden", "classroom", "restaurant", "station"))
        if rng.random() < 0.3:
            c["tense"] = "d"
            c["time"] = rng.choice(("yesterday", "last_night", "this_morning"))
        elif rng.random() < 0.2:
            c["time"] = "now"
    else:
        n = rng.choice(("cat", "dog", "book", "pen", "key", "phone", "ball", "bag", "umbrella", "hat", "cup",
                        "rabbit", "bird", "map", "ticket", "letter"))
        d = rng.choice(("the", "the", "my", "this", "that"))
        np = {"k": "noun", "n": n, "d": d if d != "my" else "poss"}
        if d == "my":
            np["poss"] = _possessor(rng)
        c["subj"] = np if rng.random() < 0.88 else {"k": "pron", "p": "it"}  # it is on the table -> 它 在 桌子 上
        loc = rng.choice(tuple(LOCATIVES))
        lands = [k for k, v in NOUNS.items() if "landmark" in v.cls and k != n]
        keep = {"on": ("table", "chair", "box"), "in": ("box", "bag"), "under": ("table", "chair", "tree")}
        lands = [k for k in lands if k in keep.get(loc, lands)] or ["table"]  # in the tree is 树上, not 树里
        land = rng.choice(lands)
        c["loc"] = loc
        c["land"] = {"k": "noun", "n": land, "d": "the", "nomw": True}
        if rng.random() < 0.3 and land not in ("tree", "door"):
            c["land"] = {"k": "noun", "n": land, "d": "poss", "poss": _possessor(rng)}
            _pronoun_possessor(c["land"], c["subj"])
    if q == "where":
        c.pop("place", None)
        if rng.random() < 0.35:  # where is the library ? -> 图书馆 在 哪里 ？
            c["subj"] = {"k": "place", "n": rng.choice(WHERE_PLACES)}
            c["tense"] = "p"
            c.pop("time", None)
        elif (c["subj"]["k"] == "noun" and c["subj"].get("d") in ("the", "poss")
              and "human" not in NOUNS[c["subj"]["n"]].cls and rng.random() < 0.4):
            c["subj"]["pl"] = True  # where are my keys ? -> 我 的 钥匙 在 哪里 ？
    elif (c["subj"]["k"] == "noun" and c["subj"].get("d") in ("the", "poss")
          and "human" not in NOUNS[c["subj"]["n"]].cls and rng.random() < 0.25):
        c["subj"]["pl"] = True  # the books are on the table -> 书 在 桌子 上
    return c


WHERE_PLACES = ("library", "park", "hospital", "store", "restaurant", "station", "market", "supermarket",
                "cinema", "museum", "zoo", "pool", "classroom", "office", "kitchen")


def coref(np, rng):
    """The subject pronoun that refers back to np (for 'and he ...', 'because she ...')."""
    if np["k"] == "pron":
        return {"k": "pron", "p": np["p"], **({"fem": True} if np.get("fem") else {})}
    from helpers.corpus.grammar import gender_of, is_plural

    if np["k"] in ("noun", "coord") and is_plural(np):
        items = np["items"] if np["k"] == "coord" else [np]
        if all(gender_of(x) == "f" for x in items):  # lily and her sister -> they -> 她们
            return {"k": "pron", "p": "they", "fem": True}
        return {"k": "pron", "p": "they"}
    g = gender_of(np) or rng.choice("mf")
    return {"k": "pron", "p": "he" if g == "m" else "she"}


def sample_clause(rng, rich=False, question=True):
    r = rng.random()
    if r < 0.04:
        return sample_weather(rng, question)
    if r < 0.08:
        return sample_exist(rng, question)
    if r < 0.74:
        return sample_act(rng, rich, question=question)
    return sample_copula(rng, rich, question=question)
