"""Meaning side of the corpus-3.0 learner words (issue 21): clauses and adjuncts a student types first.

* ``sample_weather``: it is cold today, it is raining now; ``sample_exist``: there is a cat under the table.
* ``_learner_adjuncts``: with ... (和 … 一起), together, never, for two hours, too, get up early, and the
  fixes of the short-sentence oddities (play with a place or a partner, sleep tonight, live in a place).
* ``_pronoun_possessor`` (lily likes her rabbit, not lily 's rabbit), ``_spouse`` (his wife, not our
  wife), ``_recipient`` (the person something is given to).

``helpers.corpus.sampler`` calls these; they use only the lexicon, so there is no import cycle.
"""

from __future__ import annotations

from helpers.corpus.lexicon import INTRANSITIVE, KIN, NAMES, WEATHER_ADJ

NAME_KEYS = tuple(NAMES)
KIN_NOUNS = tuple(KIN)


SPOUSE_OF = {"m": "wife", "f": "husband"}


def _spouse(np):
    """my wife, his wife, her husband, tom 's wife: one possessor, of the other gender (not "our wife")."""
    if np.get("n") not in ("wife", "husband") or np.get("d") != "poss":
        return np
    kind, who = np["poss"]
    if kind == "pron" and who in ("we", "they"):
        np["poss"] = ("pron", "i" if who == "we" else "he")
        kind, who = np["poss"]
    gender = NAMES[who][1] if kind == "name" else {"he": "m", "she": "f"}.get(who)
    if gender:
        np["n"] = SPOUSE_OF[gender]
    return np


def _pronoun_possessor(obj, subj):
    """lily likes lily 's rabbit -> lily likes her rabbit: a possessor named in the subject is a pronoun."""
    if obj.get("d") != "poss" or obj["poss"][0] != "name":
        return
    people = subj.get("items") or [subj]
    names = {x.get("n") for x in people if x["k"] == "name"}
    names |= {x["poss"][1] for x in people if x.get("d") == "poss" and x["poss"][0] == "name"}
    for rel in [x["rel"] for x in people if x.get("rel")]:  # the writer who met emma lost her hat
        names |= {y["n"] for y in (rel.get("o"), rel.get("s")) if y and y["k"] == "name"}
    if obj["poss"][1] in names:
        obj["poss"] = ("pron", "he" if NAMES[obj["poss"][1]][1] == "m" else "she")


def _recipient(rng, subj):
    """A person to give something to, never the subject itself."""
    while True:
        r = rng.random()
        if r < 0.4:
            io = {"k": "pron", "p": rng.choice(("me", "you", "he", "she", "us", "they"))}
            io["p"] = {"me": "i", "us": "we"}.get(io["p"], io["p"])
        elif r < 0.7:
            io = {"k": "name", "n": rng.choice(NAME_KEYS)}
        else:
            io = {"k": "noun", "n": rng.choice(KIN_NOUNS + ("friend", "teacher")), "d": "poss", "poss": ("pron", "i")}
            if subj["k"] == "pron":
                io["poss"] = ("pron", subj["p"])
            _pronoun_possessor(io, subj)
            _spouse(io)
        if io != subj and not (io["k"] == "pron" and subj["k"] == "pron" and {io["p"], subj["p"]} <= {"i", "we"}):
            return io


WITH_VERBS = ("go", "come", "play_i", "walk", "run", "swim", "study_i", "dance", "eat")
PLURAL_PRONS = ("we", "they")


def _learner_adjuncts(rng, c, verb, tense, neg, q, free=True):
    """corpus 3.0: with ... (和 … 一起), together, never (从来 不), get up early, and the fixed oddities.

    ``free``: a clause drawn on its own (not a clause of a story, whose subject the story chose): only
    such clauses get the optional adjuncts (with, together, never, for two hours, too)."""
    s = c["subj"]
    if not free:
        q = "story"  # no optional adjuncts below
    if verb == "play_i" and not c.get("place") and q not in ("where", "story"):  # not "the boy plays ."
        if rng.random() < 0.5:
            c["place"] = rng.choice(INTRANSITIVE[verb][5].split())
        else:
            c["with"] = _recipient(rng, s)
    elif verb in WITH_VERBS and q is None and rng.random() < 0.12:
        c["with"] = _recipient(rng, s)
    plural_subj = (s["k"] == "coord") or (s["k"] == "pron" and s["p"] in PLURAL_PRONS)
    if verb in WITH_VERBS + ("play",) and not c.get("with") and plural_subj and q is None and rng.random() < 0.25:
        c["together"] = True
    if verb == "borrow" and c.get("obj", {}).get("n") not in ("book", "novel", "magazine"):
        c.pop("place", None)  # one borrows books in the library, a pen from a classmate
    if verb == "fly" and c.get("time") in ("last_night", "tonight"):  # kites fly by day
        c["time"] = "this_morning" if tense == "d" else "tomorrow"
    if verb == "sleep" and tense == "f" and q != "when":  # "will sleep today" -> tonight
        c["time"] = "tonight" if rng.random() < 0.7 else None
    if verb in ("live", "stay") and q not in ("where",) and not c.get("place"):
        c["place"] = rng.choice(INTRANSITIVE[verb][5].split())
    if verb == "get_up":  # always early: "she gets up every morning" says nothing
        c["time"] = {"p": "every_morning", "f": "tomorrow", "d": rng.choice(("this_morning", "yesterday"))}[tense]
        c.pop("freq", None)
        c["early"] = True
        c["neg"] = False
        c.pop("place", None)
    if verb in ("open", "meet") and tense == "p" and not (c.get("time") or c.get("freq")):
        c["time"] = rng.choice(("every_morning", "every_day", "every_sunday") if verb == "open" else
                               ("every_sunday", "every_week", "on_weekends"))
    if (tense == "p" and not neg and q is None and c.get("freq") and verb not in ("get_up", "sleep")
            and rng.random() < 0.25):
        c["freq"] = "never"  # she never drinks coffee -> 她 从来 不 喝 咖啡
    if verb in DUR_VERBS and q is None and not neg and tense in "pdf" and rng.random() < 0.15:
        c["dur"] = rng.choice((1, 2, 2, 3))  # she studied for two hours -> 她 学习 了 两 个 小时
        if tense == "p" and not c.get("time"):
            c["time"] = "every_day"
            c.pop("freq", None)
        if c.get("time") in ("last_year", "next_year", "last_week", "next_week"):  # not "for two hours next year"
            c["time"] = "yesterday" if tense == "d" else "tomorrow"
    if q is None and not neg and c.get("freq") != "never" and not c.get("dur") and rng.random() < 0.04:
        c["too"] = True  # i like tea too -> 我 也 喜欢 喝 茶


DUR_VERBS = ("study_i", "run", "swim", "walk", "work", "play_i", "dance", "rest", "sleep")


def sample_weather(rng, question=True):
    """it is cold today -> 今天 天气 很 冷; it is raining now -> 现在 正在 下雨."""
    if rng.random() < 0.4:
        tense = rng.choice("dfg")
        c = {"type": "weather", "rain": True, "tense": tense, "neg": tense != "g" and rng.random() < 0.2}
        c["time"] = {"g": rng.choice(("now", None)), "d": rng.choice(("yesterday", "last_night", "this_morning")),
                     "f": rng.choice(("tomorrow", "tonight"))}[tense]
        c["place"] = rng.choice((None, None, "city", "town", "here", "there"))
        if question and not c["neg"] and tense in "fg" and rng.random() < 0.25:
            c["q"] = "yn"  # will it rain tomorrow ? -> 明天 会 下雨 吗 ？
        return c
    tense = "d" if rng.random() < 0.3 else "p"
    c = {"type": "weather", "adj": rng.choice(WEATHER_ADJ), "tense": tense, "it": rng.random() < 0.6,
         "neg": rng.random() < 0.15}
    c["time"] = rng.choice(("yesterday", "last_week") if tense == "d" else ("today", "in_winter", "in_summer", None))
    if c["time"] in ("in_winter", "in_summer"):  # cold in winter, hot in summer
        c["adj"] = "cold" if c["time"] == "in_winter" else "hot"
    if c["adj"] in ("good", "bad"):
        c["it"] = False  # it is good today: not English
        if c["time"] in ("in_winter", "in_summer"):
            c["time"] = "today"
    if question and not c["neg"] and tense == "p" and rng.random() < 0.2:
        c["q"] = "yn"
    elif not c["neg"] and rng.random() < 0.2:
        c["very"] = True
    return c


EXIST_THINGS = ("person", "cat", "dog", "book", "pen", "key", "phone", "ball", "bag", "cup", "rabbit", "bird", "apple",
                "box", "map", "toy", "notebook", "umbrella")
EXIST_PLACES = ("garden", "park", "kitchen", "classroom", "library", "bedroom")
EXIST_MASS = ("milk", "water", "juice", "bread", "rice", "meat", "fruit")


def sample_exist(rng, question=True):
    """there is a cat under the table -> 桌子 下面 有 一 只 猫; there is no milk in the kitchen -> 厨房 里 没有 牛奶."""
    c = {"type": "exist", "neg": rng.random() < 0.2}
    if rng.random() < 0.3:
        c["np"] = {"k": "noun", "n": rng.choice(EXIST_MASS), "d": "bare"}
        c["place"] = "kitchen"
        c["neg"] = True if rng.random() < 0.6 else c["neg"]
        if not c["neg"]:
            c["np"] = {"k": "noun", "n": c["np"]["n"], "d": "bare"}
        return c
    n = rng.choice(EXIST_THINGS)
    d = "a" if rng.random() < 0.6 else "num"
    c["np"] = {"k": "noun", "n": n, "d": d, "num": rng.randint(2, 5)}
    if question and not c["neg"] and rng.random() < 0.25:
        c["q"] = "yn"
        c["np"]["d"] = "a"
    if rng.random() < 0.4 or n == "person":  # a person is in a room or a garden, not in a box
        c["place"] = rng.choice(EXIST_PLACES)
    else:
        loc = rng.choice(("on", "under", "in", "near", "next_to"))
        keep = {"on": ("table", "chair", "desk", "bed"), "in": ("box", "bag"), "under": ("table", "chair", "tree", "bed"),
                "near": ("door", "window", "tree"), "next_to": ("door", "bed", "desk", "table")}
        land = rng.choice([x for x in keep[loc] if x != n])
        c["loc"], c["land"] = loc, {"k": "noun", "n": land, "d": "the"}
    return c
