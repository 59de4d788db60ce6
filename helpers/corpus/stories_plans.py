"""The discourse plans of the long sentences (corpus 3.0): what happens in a story, in which order.

Each plan is a function ``plan(st, size) -> chain spec`` over a ``Story`` (``helpers.corpus.stories``)
that grows to about ``size`` clauses; ``PLANS`` maps its name to (fewest clauses, most clauses,
function). A plan picks the relation of each step, and so its connective: a sequence (and / and then
/ after that), a cause (so, because, so -> 就), an addition (and also -> 还, another person too -> 也),
a contrast of two parallel things (while -> 而, but -> 但是) or a plan that rain spoils (but -> 可是).
The check (``python -m helpers.corpus check``) counts how often each plan occurs: none may pass 10 %.
"""

from __future__ import annotations

from helpers.corpus.sampler import coref
from helpers.corpus.stories import (
    ACTIVITIES,
    DRINK,
    FOOD,
    GROCERIES,
    OUTINGS,
    SPORTS,
    TIRING,
    _activity,
    _base,
    _contrast,
    _first_time,
    _go,
    _tense_ok,
    other_person,
    seq_conn,
)

FAR = ("beach", "zoo", "museum")
OUTDOORS = ("park", "beach", "zoo", "pool")
BUSY_PLACES = ("school", "office", "library", "park", "cinema", "pool", "zoo", "museum")


# --------------------------------------------------------------------------- steps shared by the plans
def do_conn(st):
    """Going somewhere and what one does there: mostly one Chinese clause (去 公园 踢 了 足球), else ， ."""
    return "serial" if st.rng.random() < 0.65 else "and"


def go(st, place, time=False, subj=None, tense=None):
    return _go(st.rng, subj or st.he(), tense or st.tense, place, st.rich, time=time)


def act(st, place, subj=None, exclude=(), only=None, tense=None):
    tense = tense or st.tense
    a = _activity(st.rng, place, subj or st.he(), tense, st.rich, set(exclude) | st.done, only)
    return a


def act_at(st, place, **kw):
    a = act(st, place, **kw)
    if a is not None:
        a["place"] = place
    return a


def timed(st, clause):
    key, val = _first_time(st.rng, clause["tense"], freq_ok=clause["tense"] == "p")
    clause[key] = val
    return clause


def feel(st, adj, subj=None, tense=None):
    tense = tense or st.tense
    return {"type": "cop_adj", "subj": subj or st.he(), "adj": adj, "tense": "d" if tense == "d" else "p",
            "neg": False, "q": None}


def places_for(st, exclude=()):
    """Places to go next: not the hospital (a visit has its plan), nor school for a grown-up who works."""
    pupil = st.plan in ("school_day", "outing", "weekend_plan", "why_because") and "work" not in st.done
    rained = any(isinstance(x, dict) and x.get("type") == "weather" and x.get("w") == "rain" for x in st.items)
    return [p for p in OUTINGS if p not in exclude and p != "hospital" and (p != "school" or pupil)
            and not (p == "office" and st.plan == "school_day")  # a pupil's day has no office
            and not (rained and p in OUTDOORS)  # after the rain, indoors
            and any(_tense_ok(v, st.tense) for v, _ in ACTIVITIES[p])]


HOME_ORDER = ("cook", "clean", "watch", "listen", "read", "sleep")  # an evening at home: cook first, sleep last


def extend(st, size, place, home_ok=True, moves=1):
    """Grow the story to ``size`` clauses with steps that follow from the last one: one more thing at
    the same place (还), one other place and what one did there, the way home (tired after a game: ，
    很 累 ， 就 回 家 了) and an evening at home in its order (cook ... sleep), then stop."""
    visited = {place} | {x["dest"] for x in st.items if isinstance(x, dict) and x.get("neg") and x.get("dest")}
    also = "and_also" in st.items  # (a place the story did not go to stays unvisited: not "did not go to
    # the library , ... , and after that went to the library")
    moved = 0
    homes = [k for k, x in enumerate(st.items) if isinstance(x, dict) and x.get("dest") == "home"]
    home_acts = sum(1 for k, x in enumerate(st.items) if isinstance(x, dict) and (
        x.get("place") == "home" or (homes and k > homes[-1])))  # what the story already did at home
    while st.n() < size:
        r = st.rng.random()
        left = size - st.n()
        if place != "home" and not also and r < 0.35:
            if st.add("and_also", act(st, place)):
                also = True
                continue
        if place != "home" and moved < moves and (left >= 3 or not home_ok) and r < 0.85:
            opts = places_for(st, visited | set(FAR))
            if opts:
                p2 = st.rng.choice(opts)
                a = act(st, p2)
                if a is not None:
                    st.add(seq_conn(st), go(st, p2))
                    st.add(st.rng.choice(("serial", "and")), a)
                    visited.add(p2)
                    place, moved = p2, moved + 1
                    continue
        if place != "home" and home_ok:
            tired = any(isinstance(x, dict) and x.get("adj") == "tired" for x in st.items)
            if st.tense == "d" and st.done & TIRING and left >= 2 and "so" not in st.items and not tired:
                st.add("and", feel(st, "tired"))  # ， 很 累 ， 就 回 家 了
                st.add("so_jiu", go(st, "home"))
            else:  # the way home closes a day out: 然后 / 接着 if still unused, else 最后
                conn = seq_conn(st)  # never a bare ， before the way home (..., 游泳 了 ， 回 家 了)
                st.add(("finally" if st.n() > 2 else "and_then") if conn == "and" else conn, go(st, "home"))
            place = "home"
            continue
        if place != "home":
            break
        went_home = any(isinstance(x, dict) and x.get("dest") == "home" for x in st.items)
        busy = any(isinstance(x, dict) and (x.get("adj") == "busy" or x.get("v") == "have") for x in st.items)
        if moved < moves and home_acts >= 1 and left >= 3 and st.tense == "d" and not went_home \
                and "sleep" not in st.done and "cook" not in st.done and not busy:  # busy: no cinema later
            # a day that began at home goes on: ..., and then went to the cinema and watched a movie
            p2 = st.rng.choice([p for p in ("restaurant", "cinema", "supermarket", "library") if p not in visited])
            a = act(st, p2)
            if a is not None:
                st.add(seq_conn(st), go(st, p2))
                st.add(do_conn(st), a)
                visited.add(p2)
                place, moved, home_acts = p2, moved + 1, 0
                continue
        if home_acts >= 2 or ("finally" in st.items and home_acts):  # two things at home are enough
            break  # (回 家 做饭 了 ， 还 看 了 电视), and after 最后 回 家 at most one
        last = max((HOME_ORDER.index(v) for v in st.done if v in HOME_ORDER), default=-1)
        nxt = [v for v in HOME_ORDER[last + 1:] if v != "clean" and not (v == "sleep" and st.tense != "d")]
        if not nxt or (nxt == ["sleep"] and left > 1 and st.rng.random() < 0.5):
            break
        v = nxt[0] if st.rng.random() < 0.6 else st.rng.choice(nxt)
        a = act(st, "home", exclude=set(HOME_ORDER) - {v})
        just_home = st.items[-1].get("dest") == "home"  # 回 家 做饭 了: going home and what one does there
        conn = do_conn(st) if just_home else "and_also" if "and_also" not in st.items and v != "sleep" \
            else seq_conn(st)  # 还 看 了 电视, but not 还 睡觉 了
        if "finally" in st.items and just_home:
            conn = "serial"  # 最后 回 家 做饭 了
        if a is None or not st.add(conn, a):
            break
        home_acts += 1
    return st.spec()


def outing_core(st, place=None, first=False):
    place = place or st.rng.choice(places_for(st))
    g = go(st, place, time=True, subj=st.agent)
    if first and st.tense != "f":  # 先 with 会 would need 会 先: kept to the past and the present
        g["first"] = True
    st.add(None, g)
    st.add(do_conn(st), act(st, place))  # went to the zoo and saw pandas: no 然后 inside one outing
    return place


# --------------------------------------------------------------------------- the plans
def outing(st, size):
    """went to the park , and played football [, and also ...] [, and then ...]."""
    return extend(st, size, outing_core(st))


def day_out(st, size):
    """went to the zoo by train , and saw pandas , and after that went to the beach ..."""
    st.tense = "d"
    place = st.rng.choice(("zoo", "beach", "museum") if _tense_ok("see", "d") else ("beach",))
    if place == "museum":
        place = "zoo"
    return extend(st, size, outing_core(st, place))


def weekend_plan(st, size):
    """tomorrow we will go to the beach , and swim , and then we will go home (future)."""
    st.tense = "f"
    size = min(size, 5)  # a plan is a few steps; a long list of 会 … reads like a timetable
    return extend(st, size, outing_core(st))


def routine(st, size):
    """every morning she first drinks milk , and then goes to school by bus , and studies ... (habit)."""
    st.tense = "p"
    first = timed(st, {"type": "act", "v": "drink", "tense": "p", "neg": False, "q": None, "subj": st.agent,
                       "obj": {"k": "noun", "n": st.rng.choice(("milk", "tea", "coffee", "juice", "water")),
                               "d": "bare"}, "first": True})
    if st.rng.random() < 0.5:
        first.update(v="eat", obj={"k": "noun", "n": st.rng.choice(("bread", "egg", "noodles", "rice")), "d": "bare"})
    first.pop("freq", None)
    first["time"] = "every_morning"
    st.add(None, first)
    st.done.add(first["v"])
    place = st.rng.choice(("school", "office", "library"))
    g = go(st, place)
    st.add("and_then", g)
    st.add(do_conn(st), act(st, place))
    return extend(st, size, place, moves=0)  # a routine: there and home again


def school_day(st, size):
    """went to school by bike , and studied math , and after that played basketball ..."""
    st.tense = st.rng.choice("ddp")
    if st.agent["k"] == "noun" and st.agent["n"] not in ("brother", "sister", "friend", "student"):
        st.agent = {"k": "noun", "n": st.rng.choice(("brother", "sister", "son", "daughter")), "d": "poss",
                    "poss": ("pron", st.rng.choice(("i", "you", "we")))}  # a pupil, not my grandfather
        st.pron = coref(st.agent, st.rng)
    place = outing_core(st, "school")
    if st.items[0].get("time") in ("on_weekends", "every_sunday", "every_evening"):  # school: weekday mornings
        st.items[0]["time"] = st.rng.choice(("every_day", "every_morning"))
    return extend(st, size, place)


def after_work(st, size):
    """worked in the office , and then went to the supermarket , and bought meat and bread ..."""
    st.tense = "d"
    work = timed(st, {"type": "act", "v": "work", "tense": "d", "neg": False, "q": None, "subj": st.agent,
                      "place": st.rng.choice(("office", "hospital", "school", "store"))})
    st.add(None, work)
    shop = st.rng.choice(("supermarket", "market"))
    st.add("after_that", go(st, shop))
    st.add(do_conn(st), act(st, shop))
    return extend(st, size, shop)


def shopping_list(st, size):
    """first went to the market , and bought two apples and a bottle of milk , and then went to the store ..."""
    st.tense = st.rng.choice("ddf") if size <= 5 else "d"
    shop = st.rng.choice(("market", "supermarket"))
    st.rich = True
    outing_core(st, shop, first=True)
    a = act(st, "store")
    if a is None:  # nothing to buy there: not "went to the store , and went home"
        return extend(st, size, shop)
    st.add("and_then", go(st, "store"))
    st.add(do_conn(st), a)
    return extend(st, size, "store")


def cook_dinner(st, size):
    """bought meat at the market , and then went home , and cooked , and then ate ..."""
    st.tense = st.rng.choice("ddf") if size <= 5 else "d"
    shop = st.rng.choice(("market", "supermarket"))
    b = act_at(st, shop, subj=st.agent, only=GROCERIES)
    st.add(None, timed(st, b))
    st.add("and_then", go(st, "home"))
    st.add(do_conn(st), {"type": "act", "v": "cook", "tense": st.tense, "neg": False, "q": None, "subj": st.he()})
    return extend(st, size, "home")


def hungry(st, size):
    """was hungry , so went to the restaurant , and ate two bowls of noodles ..."""
    st.tense = "d"
    f = feel(st, "hungry", subj=st.agent)
    f["time"] = st.rng.choice(("yesterday", "last_night", "this_morning"))
    st.add(None, f)
    place = st.rng.choice(("restaurant", "restaurant", "home"))
    if place == "home":
        st.add("so_jiu", go(st, "home"))
        st.add("serial", {"type": "act", "v": "cook", "tense": "d", "neg": False, "q": None, "subj": st.he()})
        st.done.add("cook")
        place = "home"
    else:
        st.add(st.rng.choice(("so", "so_jiu")), go(st, place))
        st.add(do_conn(st), act(st, place, only=FOOD, exclude={"drink"}))
    return extend(st, size, place)


def thirsty(st, size):
    """was thirsty , so went to the supermarket , and bought two bottles of water ..."""
    st.tense = "d"
    f = feel(st, "thirsty", subj=st.agent)
    f["time"] = st.rng.choice(("yesterday", "last_night", "this_morning"))
    st.add(None, f)
    place = st.rng.choice(("supermarket", "restaurant"))
    st.add(st.rng.choice(("so", "so_jiu")), go(st, place))
    st.add(do_conn(st), act(st, place, only=DRINK, exclude={"eat"}))
    return extend(st, size, place)


def tired_home(st, size):
    """played football in the park , so was tired , and went home , and slept."""
    st.tense = "d"
    place = st.rng.choice(("park", "pool", "beach", "office"))
    a = act_at(st, place, subj=st.agent, exclude={"draw"})
    st.add(None, timed(st, a))
    if _base(a["v"]) not in TIRING:
        st.add("and_also", act(st, place))
    st.add("so", feel(st, "tired"))
    st.add("so_jiu", go(st, "home"))
    if st.n() < size:
        st.add("serial", {"type": "act", "v": "sleep", "tense": "d", "neg": False, "q": None, "subj": st.he()})
    return extend(st, size, "home")


def cancelled(st, size):
    """did not go to school today , because was busy , so read a book at home ..."""
    st.tense = st.rng.choice("df")
    place = st.rng.choice(BUSY_PLACES)
    g = go(st, place, time=True, subj=st.agent)
    g["neg"] = True
    g.pop("by", None)
    st.add(None, g)
    adj = st.rng.choice(("tired", "busy", "time"))
    if adj == "time":  # because she did not have time -> 因为 她 没有 时间
        st.add("because", {"type": "act", "v": "have", "tense": "d" if st.tense == "d" else "p", "neg": True,
                           "q": None, "subj": st.he(), "obj": {"k": "noun", "n": "time", "d": "bare"}})
    else:
        st.add("because", feel(st, adj))
    home = act_at(st, "home", exclude={"clean", "cook"} if adj == "tired" else {"sleep"})
    st.add("so", home)
    return extend(st, size, "home")


def tired_stay(st, size):
    """was tired yesterday , so did not go to the park , and slept at home ..."""
    st.tense = "d"
    f = feel(st, st.rng.choice(("tired", "busy")), subj=st.agent)
    f["time"] = st.rng.choice(("yesterday", "this_morning", "last_night"))
    st.add(None, f)
    g = go(st, st.rng.choice(BUSY_PLACES))
    g["neg"] = True
    g.pop("by", None)
    st.add("so", g)
    st.add("and", act_at(st, "home", exclude={"clean"}))
    return extend(st, size, "home")


def rain_spoils(st, size):
    """went to the beach this morning , but it rained , so went home ... (可是: the plan changed)."""
    st.tense = "d"
    place = st.rng.choice(("beach", "park", "zoo"))
    outing_core(st, place)
    st.add("but_kes", {"type": "weather", "w": "rain", "tense": "d"})
    st.add("so_jiu", go(st, st.rng.choice(("home", "cinema", "library", "restaurant"))), same=False)
    dest = st.items[-1]["dest"]
    st.add(do_conn(st), act(st, dest, exclude={"sleep"}))
    return extend(st, size, dest)


def rain_cancel(st, size):
    """it rained yesterday , so we did not go to the park , and watched tv at home ..."""
    st.tense = "d"
    w = {"type": "weather", "w": "rain", "tense": "d", "time": st.rng.choice(("yesterday", "this_morning"))}
    st.add(None, w)
    g = go(st, st.rng.choice(("park", "beach", "zoo", "pool")), subj=st.agent)
    g["neg"] = True
    g.pop("by", None)
    st.add("so", g, same=False)
    st.add("and", act_at(st, "home", exclude={"clean", "sleep"}))
    return extend(st, size, "home")


def if_rain(st, size):
    """if it rains tomorrow , we will not go to the park , and will watch a movie at home ..."""
    st.tense = "f"
    st.add(None, {"type": "weather", "w": "rain", "tense": "p", "time": "tomorrow", "if": True})
    g = go(st, st.rng.choice(("park", "beach", "zoo", "pool")), subj=st.agent)
    g["neg"] = True
    g.pop("by", None)
    st.add("cons", g, same=False)
    st.add("and", act_at(st, "home", exclude={"clean", "sleep"}))
    return extend(st, size, "home")


def weather_choice(st, size):
    """it was cold this morning , so went to school by bus ... / it was hot , so went to the pool ..."""
    st.tense = "d"
    w = st.rng.choice(("cold", "hot"))
    st.add(None, {"type": "weather", "w": w, "tense": "d", "time": st.rng.choice(("yesterday", "this_morning"))})
    if w == "cold":
        place = st.rng.choice(("school", "library") if st.agent.get("n") in ("brother", "sister", "son", "daughter")
                              or st.agent["k"] in ("name", "pron") else ("office", "library"))
        g = go(st, place, subj=st.agent)
        g["by"] = st.rng.choice(("bus", "car"))
    else:
        place = st.rng.choice(("pool", "beach"))
        g = go(st, place, subj=st.agent)
    st.add("so", g, same=False)
    st.add(do_conn(st), act(st, place))
    return extend(st, size, place)


def two_outings(st, size):
    """tom went to the park and played football , while his sister went to the library and read a book."""
    st.tense = st.rng.choice("dddf")
    p1 = outing_core(st)
    other = other_person(st.rng, st.agent)
    she = coref(other, st.rng)
    p2 = st.rng.choice([p for p in places_for(st, {p1})])
    st.add("while", go(st, p2, subj=other), same=False)
    a2 = act(st, p2, subj=dict(she), exclude=st.done)
    st.add(do_conn(st), a2)
    if st.n() < size:  # and then both went home: they ... -> 然后 他们 都 ...? keep the agent's part
        we = {"i": "we", "we": "we", "you": "you"}.get(st.pron["p"], "they")  # i ... my brother -> we
        st.add("and_then", go(st, "home", subj={"k": "pron", "p": we}), same=False)
    return st.spec()


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
    return extend(st, size, HOME_OF[v], home_ok=False) if st.n() < size and False else st.spec()


def compare_likes(st, size):
    """tom likes tea , while lily likes coffee [, so tom often drinks tea at home]."""
    st.tense = "p"
    v = st.rng.choice(tuple(PREF))
    x, y = st.rng.sample(PREF[v], 2)
    other = other_person(st.rng, st.agent)
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
    other = other_person(st.rng, st.agent)
    st.add(None, _like(st.agent, x))
    st.add("too", _like(other, x), same=False)
    if st.n() < size:
        we = {"i": "we", "we": "we", "you": "you"}.get(st.pron["p"], "they")  # you and lily -> you
        st.add("so", _habit(st, v, x, {"k": "pron", "p": we},
                            HOME_OF[v]), same=False)
    return st.spec()


SKILL_OBJ = {"swim": None, "sing": None, "dance": None, "cook": None}


def ability(st, size):
    """can swim , but her brother can not swim , so he will not go to the pool tomorrow."""
    v = st.rng.choice(("swim", "play", "sing", "dance", "cook", "speak"))
    obj = None
    if v == "play":
        obj = _np(st.rng.choice(SPORTS + ("piano", "guitar")))
    elif v == "speak":
        obj = _np(st.rng.choice(("english", "chinese")))
    other = other_person(st.rng, st.agent)
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


def visit_hospital(st, size):
    """first bought flowers at the store , and then went to the hospital , and visited his grandmother."""
    st.tense = st.rng.choice("ddf") if size <= 5 else "d"
    b = {"type": "act", "v": "buy", "tense": st.tense, "neg": False, "q": None, "subj": st.agent,
         "obj": {"k": "noun", "n": st.rng.choice(("flower", "gift", "cake")), "d": "a"}, "place": "store",
         "first": st.tense != "f"}
    if b["obj"]["n"] == "flower":
        b["obj"] = {"k": "noun", "n": "flower", "d": "num", "num": st.rng.randint(2, 5)}
    st.add(None, timed(st, b))
    st.add("and_then", go(st, "hospital"))
    kin = {"k": "noun", "n": st.rng.choice([k for k in ("grandmother", "grandfather")  # 去 医院 看望 奶奶
                                            if k != st.agent.get("n")]), "d": "poss", "poss": st.poss()}
    st.add("and", {"type": "act", "v": "visit", "tense": st.tense, "neg": False, "q": None, "subj": st.he(),
                   "obj": kin})
    return extend(st, size, "hospital", moves=0)  # after the hospital, home


def lost_found(st, size):
    """lost her key at school yesterday , but her brother found the key in the park , so she was happy."""
    st.tense = "d"
    n = st.rng.choice(("key", "phone", "bag", "umbrella", "ticket", "pen"))
    place = st.rng.choice(("school", "park", "library", "station"))
    st.add(None, timed(st, {"type": "act", "v": "lose", "tense": "d", "neg": False, "q": None, "subj": st.agent,
                            "obj": {"k": "noun", "n": n, "d": "poss", "poss": st.poss()}, "place": place}))
    other = other_person(st.rng, st.agent)
    st.add("but", {"type": "act", "v": "find", "tense": "d", "neg": False, "q": None, "subj": other,
                   "obj": {"k": "noun", "n": n, "d": "the"},
                   "place": st.rng.choice([p for p in ("school", "park", "library", "station") if p != place])},
           same=False)
    if st.n() < size:
        st.add("so", feel(st, "happy"), same=False)
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
    reason = _like(st.he(), n) if n else {"type": "act", "v": "like", "tense": "p", "neg": False, "q": None,
                                           "subj": st.he(), "obj": _np("water")}
    if n is None:
        reason = {"type": "act", "v": "swim", "tense": "c", "neg": False, "q": None, "subj": st.he()}
    st.add("answer_because", reason, same=False)
    if st.n() < size:
        a = act(st, "home", tense="p")
        if a is not None:
            a["place"] = "home"
            st.add("and_also", a)
    return st.spec()


def where_answer(st, size):
    """where did tom go yesterday ? he went to the zoo , and saw three pandas , and then ..."""
    st.tense = "d"
    q = go(st, "park", time=True, subj=st.agent)
    q.pop("dest")
    q.pop("by", None)
    q["q"] = "where"
    if st.agent["k"] == "pron" and st.agent["p"] in ("i", "we"):
        st.agent = {"k": "name", "n": st.rng.choice(("tom", "lily", "mary", "jack"))}
        st.pron = coref(st.agent, st.rng)
        q["subj"] = st.agent
    st.add(None, q)
    place = st.rng.choice(places_for(st))
    st.add("answer", go(st, place, subj=st.he() if st.agent["k"] != "pron" or st.agent["p"] != "you"
                        else {"k": "pron", "p": "i"}), same=False)
    st.add(do_conn(st), act(st, place, subj=st.items[-1]["subj"]))
    st.pron = dict(st.items[-1]["subj"])
    return extend(st, size, place)


def buy_contrast(st, size):
    """bought apples at the market , but did not buy bananas , and then went home ..."""
    st.tense = "d"
    shop = st.rng.choice(("market", "supermarket"))
    for _ in range(6):
        b = act_at(st, shop, subj=st.agent, only=GROCERIES)
        if b is not None and b.get("obj", {}).get("k") == "noun":
            break
    st.add(None, timed(st, b))
    st.add("but", _contrast(st.rng, b, st.he))
    return extend(st, size, shop)


def two_habits(st, size):
    """tom usually reads books in the library , while his sister usually plays tennis in the park."""
    st.tense = "p"
    (v1, n1), (v2, n2) = st.rng.sample([(v, n) for v in PREF for n in PREF[v][:3]], 2)
    while v1 == v2:
        v2, n2 = st.rng.choice([(v, PREF[v][0]) for v in PREF])
    other = other_person(st.rng, st.agent)
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


PLANS = {
    "outing": (2, 10, outing),
    "day_out": (3, 10, day_out),
    "weekend_plan": (2, 10, weekend_plan),
    "routine": (3, 10, routine),
    "school_day": (2, 10, school_day),
    "after_work": (3, 10, after_work),
    "shopping_list": (4, 10, shopping_list),
    "cook_dinner": (3, 10, cook_dinner),
    "hungry": (3, 10, hungry),
    "thirsty": (3, 10, thirsty),
    "tired_home": (4, 10, tired_home),
    "cancelled": (3, 10, cancelled),
    "tired_stay": (3, 10, tired_stay),
    "rain_spoils": (4, 10, rain_spoils),
    "rain_cancel": (3, 10, rain_cancel),
    "if_rain": (3, 10, if_rain),
    "weather_choice": (3, 10, weather_choice),
    "two_outings": (4, 5, two_outings),
    "preference": (3, 3, preference),
    "compare_likes": (2, 4, compare_likes),
    "same_too": (2, 3, same_too),
    "ability": (2, 3, ability),
    "skill_practice": (2, 3, skill_practice),
    "help_family": (3, 3, help_family),
    "visit_hospital": (3, 10, visit_hospital),
    "lost_found": (2, 3, lost_found),
    "why_because": (2, 3, why_because),
    "where_answer": (3, 10, where_answer),
    "buy_contrast": (2, 10, buy_contrast),
    "two_habits": (2, 3, two_habits),
    "teacher_day": (2, 3, teacher_day),
}
