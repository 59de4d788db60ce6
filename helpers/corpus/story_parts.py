"""Long sentences as small coherent stories: the meaning side of chains (``discourse`` renders them).

A story has one main person (``Story.agent``), one tense and its time phrase in the first clause, so
time runs forward; later clauses refer back with a pronoun that agrees in gender, number and person
(``coref``), and a possessor in the story is the agent's (his sister only after a man). Each story
follows a *discourse plan* (``helpers.corpus.stories_plans``: an outing, a day's routine, a plan that
rain changes, two people compared, a question with its reason, ...); ``Story.add`` joins a clause
with the connective of its relation and marks a continuing subject, which Chinese drops.

This module holds the building blocks (places and what one does there, ``Story``, ``_go``,
``_activity``); the steps (``stories_steps``), the plans (``stories_people``, ``stories_plans``) and the
entry point (``stories.sample_spec``) build on it, in that order: imports go one way.
"""


from __future__ import annotations

from helpers.corpus.grammar import person_of
from helpers.corpus.lexicon import NAMES, NOUNS, VERBS
from helpers.corpus.sampler import (
    NEAR_TIMES,
    OBJECTS,
    coref,
    sample_act,
    sample_object,
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
    "beach": (("swim", None), ("walk", None), ("run", None), ("fly", ("kite",))),
    "cinema": (("watch", ("movie",)),),
    "school": (("study", None), ("play", SPORTS)),
    "office": (("work", None), ("write", ("letter",))),
    "zoo": (("see", ANIMALS), ("draw", ("panda", "tiger", "elephant", "monkey"))),
    "museum": (("look_at", ("picture", "photo")),),
    "farm": (("see", ("cow", "horse", "sheep", "pig", "duck")),),
    "hospital": (("visit", ("grandmother", "grandfather", "uncle", "aunt")),),
    "home": (("cook", None), ("sleep", None), ("watch", ("tv",)), ("read", ("book", "magazine", "newspaper", "novel")), ("clean", ("room", "house")),
             ("listen_to", ("music",))),
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
    if objs is not None:
        objs = tuple(o for o in objs if o not in GENERAL) or objs  # bought fruit and three apples
    if rich and tense != "p" and v in ("buy", "eat", "drink") and objs is not None and len(objs) > 1 \
            and rng.random() < 0.35:  # (a habit is about kinds of things: not "often buys a kite and two balls")
        act = sample_act(rng, rich, subj=subj, verb=v, question=False, tense=tense, neg=False)
        for key in ("time", "freq", "place", "with", "together"):
            act.pop(key, None)
        a, b = rng.sample(objs, 2)  # three apples and a bottle of milk -> 三 个 苹果 和 一 瓶 牛奶
        act["obj"] = {"k": "coord", "items": [_counted(rng, a, v), _counted(rng, b, v)]}
        if v != "buy":  # a meal: a bowl of noodles and a cup of tea, not two glasses of this and two of that
            for item in act["obj"]["items"]:
                if item["d"] == "num":
                    item["d"] = "a"
        return act
    act = sample_act(rng, rich, subj=subj, verb=v, question=False, tense=tense, neg=False)
    for key in ("time", "freq", "place", "with", "together"):  # a story has its own people
        act.pop(key, None)
    if objs is not None and "obj" in act:
        act["obj"] = _object_among(rng, v, tense, objs, rich)
    _first_mention(act.get("obj"))
    obj = act.get("obj")
    if obj and obj.get("n") == "tv":  # watch tv -> 看 电视 (not "watch a tv" -> 看 一 台 电视)
        act["obj"] = {"k": "noun", "n": "tv", "d": "bare"}
    elif obj and v == "eat" and obj.get("d") == "num" and not obj.get("cont"):
        obj["d"] = "a"  # a meal is one fish or one sandwich, not two fish
    if v == "work":  # worked at the office (that day) -> 上班
        act["shift"] = True
    if v == "clean":  # cleaned the room -> 打扫 了 房间 (not "a room")
        act["obj"] = {"k": "noun", "n": rng.choice(objs or ("room",)), "d": "the"}
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
    if obj.get("adj") and obj["adj"] != "interesting":  # a story names its things plainly: not "a delicious
        obj.pop("adj")  # egg", "an old shirt" or "a short letter" (短 信 reads as 短信, a text message)
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
    for key in ("freq", "time", "with", "together"):
        go.pop(key, None)
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


GENERAL = {"fruit", "vegetables", "meat", "food"}  # words for a kind: never contrasted with one of its members


def _contrast(rng, act, he):
    """The same verb with another object of the same kind, negated: ..., but he did not buy bananas."""
    v = act["v"]
    obj = act.get("obj")
    if v not in CONTRAST_VERBS or not obj or obj["k"] != "noun":
        return None
    kind = next((k for k in SAME_KIND if NOUNS[obj["n"]].cls & k), None)
    if kind is None:
        return None
    if obj["n"] in GENERAL:  # bought fruit, but did not buy apples: a kind and one of its members
        return None
    pool = [n for n in OBJECTS[v] if n != obj["n"] and NOUNS[n].cls & kind and n not in ("rice", "noodles")
            and n not in GENERAL]  # not "bought an apple , but did not buy fruit"
    if not pool:
        return None
    n = rng.choice(pool)
    other = {"k": "noun", "n": n, "d": "the" if "instrument" in NOUNS[n].cls else "bare"}
    return {"type": "act", "v": v, "tense": act["tense"], "neg": True, "q": None, "subj": he(), "obj": other}


# --------------------------------------------------------------------------- the story builder
SEQUENCE = ("and_then", "after_that", "later")
SAME_SUBJECT_DROP = {"finally", "serial", "and", "and_also", "and_then", "after_that", "later", "so", "so_jiu", "but",
                     "but_kes"}
HOME_END = 0.12  # the share of stories that end at home (corpus 3.0: all of them did)
# connectives that put ", and" into the English: more than two in one sentence is a run-on
AND_CONNS = {"and", "and_also", "and_then", "after_that", "later", "finally", "too"}
STORY_KIN = ("mother", "father", "brother", "sister", "friend", "grandmother", "grandfather", "uncle", "aunt")


def story_agent(rng, plural_ok=True, named=False):
    """The main person of a story: a pronoun, a name, my/your/tom 's kin, or the teacher (never "his
    sister" at the start: a possessor needs someone to refer to)."""
    r = rng.random()
    if r < 0.25 and not named:
        return {"k": "pron", "p": rng.choice(("i", "you", "he", "she", "we", "they") if plural_ok
                                            else ("i", "you", "he", "she"))}
    if r < 0.6:
        return {"k": "name", "n": rng.choice(tuple(NAMES))}
    if r < 0.9:
        poss = ("pron", rng.choice(("i", "you", "we"))) if rng.random() < 0.75 else ("name", rng.choice(tuple(NAMES)))
        return {"k": "noun", "n": rng.choice(STORY_KIN), "d": "poss", "poss": poss}
    if plural_ok and rng.random() < 0.5:
        a, b = rng.sample(tuple(NAMES), 2)
        return {"k": "coord", "items": [{"k": "name", "n": a}, {"k": "name", "n": b}]}
    return {"k": "noun", "n": rng.choice(("teacher", "doctor", "student", "nurse")), "d": "the"}


def group_pron(a, b, rng):
    """The pronoun for two people together: i + anyone -> we, you + someone -> you, two women -> 她们."""
    pa = coref(a, rng)["p"] if a["k"] != "pron" else a["p"]
    if pa in ("i", "we"):
        return {"k": "pron", "p": "we"}
    if pa == "you":
        return {"k": "pron", "p": "you"}
    from_a = coref({"k": "coord", "items": [a, b]}, rng)
    return from_a


def other_person(rng, agent, kin_ok=True, pron=None):
    """A second person: the agent's relative (his sister, agreeing with the agent) or another name."""
    taken = {x.get("n") for x in agent.get("items", [agent])}  # lucy and john ... not john again
    names = [n for n in NAMES if n not in taken]
    if kin_ok and agent["k"] != "coord" and rng.random() < 0.55:
        kins = [k for k in ("brother", "sister", "mother", "father", "friend", "grandmother")
                if k != agent.get("n")]
        p = (pron or coref(agent, rng))["p"] if agent["k"] != "pron" else agent["p"]  # the teacher ... her
        if person_of(agent) in ("1s", "1p", "2") or agent["k"] == "pron":
            p = agent["p"]
        fem = p == "they" and (pron or coref(agent, rng)).get("fem")
        return {"k": "noun", "n": rng.choice(kins), "d": "poss", "poss": ("pron", p, "f") if fem else ("pron", p)}
    return {"k": "name", "n": rng.choice(names)}


class Story:
    """Clauses joined by connectives, about one agent; ``spec()`` is the chain spec with its plan name."""

    def __init__(self, rng, rich, plan, agent=None, tense="d", plural_ok=True):
        self.rng, self.rich, self.plan, self.tense = rng, rich, plan, tense
        self.agent = agent or story_agent(rng, plural_ok)
        self.pron = coref(self.agent, rng)  # one pronoun for the whole story (the teacher -> she)
        self.items = []
        self.done = set()
        self.home_end = rng.random() < HOME_END  # most stories end out of the house, not 回 家 ... 睡觉 了

    def he(self):
        return dict(self.pron)

    def poss(self):
        """The agent as a possessor: his sister, my mother, their friend."""
        return ("pron", self.pron["p"], "f") if self.pron.get("fem") else ("pron", self.pron["p"])

    def add(self, conn, clause, same=True):
        """Append a clause; a continuing subject (``same``) is dropped in Chinese, and often in English after "and"."""
        if clause is None:
            return False
        if not self.items:
            self.items.append(clause)
            if clause.get("v"):
                self.done.add(_base(clause["v"]))  # worked at the office ..., not "worked" again later
            return True
        clause = dict(clause)
        if conn in SEQUENCE and conn in self.items:  # 然后, 之后 and 后来 once each, then a new sentence
            conn = next((c for c in SEQUENCE if c not in self.items), "stop:then")
        if conn in AND_CONNS and self.ands() >= 2 and self.rng.random() < 0.8:
            conn = {"and_then": "stop:then", "after_that": "stop:after_that", "later": "stop:later",
                    "finally": "stop:then"}.get(conn, conn)  # no run-on: a new sentence
        if conn.startswith("stop"):
            same = False
            if conn != "stop" and _base_conn(conn) in {_base_conn(c) for c in self.items[1::2]}:
                conn = self.rng.choice(stop_leads(self))  # not "then ... . then ...": another opening
        if same and (conn in SAME_SUBJECT_DROP or (conn == "because" and self.rng.random() < 0.4)):
            clause["drop"] = True
            prev = self.items[-1]
            # English drops the subject after "and" (went to the park and played football), always in a
            # serial construction, but not after a negation ("did not go to the zoo and cooked" would
            # negate both) nor twice in a row (no run-on "and ... and ... and")
            if conn == "serial" and not prev.get("neg") or conn in ("and", "and_also", "and_then") and \
                    not prev.get("neg") and not prev.get("en_drop") and self.rng.random() < 0.6:
                clause["en_drop"] = True
            if conn == "serial" and not clause.get("en_drop"):
                conn = "and"
        self.items += [conn, clause]
        if clause.get("v"):
            self.done.add(_base(clause["v"]))
        return True

    def ands(self):
        """How many ", and" joins the current English sentence has (since the last full stop)."""
        k = max([i for i, x in enumerate(self.items) if isinstance(x, str) and x.startswith("stop")], default=0)
        return sum(1 for i, x in enumerate(self.items[k:], k) if isinstance(x, str) and x in AND_CONNS and not (
            i + 1 < len(self.items) and self.items[i + 1].get("en_drop")))

    def n(self):
        return (len(self.items) + 1) // 2

    def spec(self):
        return {"chain": self.items, "plan": self.plan}


def seq_conn(st):
    """The connective of a step to another place: 然后, 之后 or 后来 once each (never a bare ，), else
    a new sentence that opens with its time (. in the afternoon she ... -> 。 下午 她 ...)."""
    used = {_base_conn(c) for c in st.items[1::2]}
    opts = [c for c in ("and_then", "and_then", "after_that", "later") if _base_conn(c) not in used
            and not (c == "later" and st.tense != "d")]  # 后来 is said of the past only
    if opts and st.ands() < 2 and st.rng.random() < 0.7:
        return st.rng.choice(opts)
    return st.rng.choice(stop_leads(st))


def _base_conn(c):
    """The word a connective is said with: and_then / stop:then -> then."""
    return c.split(":")[-1].replace("and_", "")


def stop_leads(st):
    """New-sentence connectives that fit the story's tense and what it has said so far."""
    used = {_base_conn(c) for c in st.items[1::2]}
    if st.tense == "p":  # not "why does he go ... on weekends ? ... . on weekends he ..."
        first = st.items[0].get("time", "") if st.items else ""
        opts = [o for o in ("stop:weekends", "stop:evening") if not (o == "stop:weekends" and first in (
            "on_weekends", "every_sunday", "every_week")) and not (o == "stop:evening" and first == "every_evening")]
    elif st.tense == "f":
        opts = ["stop:afternoon", "stop:then", "stop:after_that"]
    else:
        opts = ["stop:afternoon", "stop:evening", "stop:later", "stop:then", "stop:after_that"]
    first = st.items[0].get("time") if st.items and isinstance(st.items[0], dict) else None
    if first in ("last_night", "tonight", "every_evening"):  # an evening story has no afternoon after it
        opts = [o for o in opts if o not in ("stop:afternoon", "stop:evening", "stop:after_school")]
    dinner = any(isinstance(x, dict) and (x.get("obj") or {}).get("n") == "dinner" for x in st.items)
    if used & {"evening", "later"} or dinner:  # the evening comes last: no afternoon after it, after
        opts = [o for o in opts if o != "stop:afternoon"]  # "later" or after dinner
    return [o for o in opts if _base_conn(o) not in used] or ["stop"]
