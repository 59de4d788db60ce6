"""Steps shared by the discourse plans (``helpers.corpus.stories_plans``, ``stories_people``).

Going somewhere (``go``), doing what one does there (``act``, ``act_at``), a feeling (``feel``), the
places that fit the story so far (``places_for``), and ``extend``: how a story grows to the clauses it
needs with steps that follow from the last one (one more thing at the same place, another place, the
way home and an evening at home in its order).
"""

from __future__ import annotations

from helpers.corpus.story_parts import (
    ACTIVITIES,
    OUTINGS,
    TIRING,
    _activity,
    _first_time,
    _go,
    _tense_ok,
    seq_conn,
    stop_leads,
)

FAR = ("beach", "zoo", "museum", "farm")
OUTDOORS = ("park", "beach", "zoo", "pool")
BUSY_PLACES = ("school", "office", "library", "park", "cinema", "pool", "zoo", "museum")


# --------------------------------------------------------------------------- steps shared by the plans
def do_conn(st):
    """Going somewhere and what one does there: one event, one Chinese clause (去 公园 踢 了 足球)."""
    return "serial"


def _clauses(st):
    return [x for x in st.items if isinstance(x, dict)]


def go(st, place, time=False, subj=None, tense=None):
    g = _go(st.rng, subj or st.he(), tense or st.tense, place, st.rich, time=time)
    if any(x.get("dest") for x in _clauses(st)):  # by bus, then by bike: the way is said once, at the start
        g.pop("by", None)
    return g


def act(st, place, subj=None, exclude=(), only=None, tense=None):
    tense = tense or st.tense
    a = _activity(st.rng, place, subj or st.he(), tense, st.rich, set(exclude) | st.done, only)
    obj = (a or {}).get("obj") or {}
    seen = {(x.get("obj") or {}).get("n") for x in _clauses(st)}
    if obj.get("k") == "noun" and obj.get("n") in seen - {None, "tv"}:
        return None  # not "saw a tiger , and also drew a tiger"
    if obj.get("n") == "dress" and (subj or st.he()).get("p") == "he":
        obj["n"] = "shirt"  # what he buys for himself
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


def weather_of(st):
    return {x.get("w") for x in _clauses(st) if x.get("type") == "weather"}


def places_for(st, exclude=()):
    """Places to go next: not the hospital (a visit has its plan), nor school for a grown-up who works,
    nor outdoors after rain, nor the pool or the beach on a cold day."""
    pupil = st.plan in PUPIL_PLANS and "work" not in st.done
    w = weather_of(st)
    return [p for p in OUTINGS if p not in exclude and p not in ("hospital", "farm")
            and (p != "office" or st.plan in WORK_PLANS) and not (p == "store" and st.tense == "p") and (p != "school" or pupil)
            and not (p == "office" and st.plan in PUPIL_PLANS)  # a pupil's day has no office
            and not ("rain" in w and p in OUTDOORS)  # after the rain, indoors
            and not ("cold" in w and p in ("pool", "beach"))  # no swimming on a cold day
            and any(_tense_ok(v, st.tense) for v, _ in ACTIVITIES[p])]


WORK_PLANS = {"outing", "where_answer"}  # one workplace a day: no office after the hospital
PUPIL_PLANS = {"school_day", "outing", "weekend_plan", "exam_prep", "zoo_day"}
HOME_ORDER = ("cook", "clean", "watch", "listen", "read", "sleep")  # an evening at home: cook first, sleep last


def _move(st, place, visited, conn=None):
    """Go on to another place and do something there (one clause: 然后 去 超市 买 了 肉), or None."""
    opts = places_for(st, visited | set(FAR))
    if not opts or "stop:evening" in st.items:  # one place in the evening, not three
        return None
    p2 = st.rng.choice(opts)
    a = act(st, p2)
    if a is None:
        return None
    st.add(conn or seq_conn(st), go(st, p2))
    st.add("serial", a)
    visited.add(p2)
    return p2


def _ate_out(st):
    return any(x.get("dest") == "restaurant" or x.get("place") == "restaurant" for x in _clauses(st))


def _go_home(st):
    """The way home: tired after a game or a swim -> a new sentence, 她 觉得 很 累 ， 就 回 家 了."""
    tired = any(x.get("adj") == "tired" for x in _clauses(st))
    if st.tense == "d" and st.done & TIRING and not tired and st.rng.random() < 0.6:
        f = feel(st, "tired")
        f["feel"] = True
        st.add("stop", f)
        st.add("so_jiu", go(st, "home"))
    else:
        conn = seq_conn(st)
        st.add("finally" if conn.startswith("stop") and "finally" not in st.items and st.ands() < 2 else conn,
               go(st, "home"))


def _home_step(st, home_acts):
    """One thing at home after the last, in the order of an evening (cook ... sleep), or False."""
    last = max((HOME_ORDER.index(v) for v in st.done if v in HOME_ORDER), default=-1)
    first = st.items[0].get("time")
    early = first in ("this_morning", "today") and "stop:evening" not in st.items  # no sleep in the morning
    nxt = [v for v in HOME_ORDER[last + 1:] if v != "clean" and not (v == "sleep" and (st.tense != "d" or early))
           and not (v == "cook" and _ate_out(st))]  # no cooking after a meal at the restaurant
    if not nxt:
        return False
    v = nxt[0] if st.rng.random() < 0.6 else st.rng.choice(nxt)
    a = act(st, "home", exclude=set(HOME_ORDER) - {v})
    if a is None:
        return False
    prev = st.items[-1]
    just_home = prev.get("dest") == "home"  # 回 家 做 了 饭: going home and what one does there
    if just_home:
        conn = "serial"
    elif v == "sleep":
        used = {c.split(":")[-1].replace("and_", "") for c in st.items[1::2]}
        conn = "and_then" if "then" not in used else "after_that" if "after_that" not in used else "finally"
        if conn == "finally" and "finally" in st.items:
            return False
    elif "and_also" not in st.items[-4:]:
        conn = "and_also"
    else:
        conn = seq_conn(st)
    return st.add(conn, a)


def extend(st, size, place, home_ok=True, moves=2):
    """Grow the story to ``size`` clauses with steps that follow from the last one: one more thing at
    the same place (还), up to ``moves`` other places, each with a connective (然后 / 之后 / 后来, or a
    new sentence: 。 下午 她 ...), and, in a fifth of the stories, the way home and an evening at home
    in its order (cook ... sleep); the others end where the day took them."""
    visited = {place} | {x["dest"] for x in _clauses(st) if x.get("dest")}
    also = "and_also" in st.items
    moved = 0
    home_acts = 0
    home_end = home_ok and (st.home_end or place == "home")
    while st.n() < size:
        r = st.rng.random()
        left = size - st.n()
        if place != "home":
            if not also and r < 0.35 and st.add("and_also", act(st, place, exclude={"work"})):
                also = True
                continue
            if moved < moves and (left >= 3 or not home_end) and r < 0.9:
                p2 = _move(st, place, visited)
                if p2:
                    place, moved, also = p2, moved + 1, "and_also" in st.items[-6:]
                    continue
            if home_end:
                _go_home(st)
                place = "home"
                continue
            break
        if not st.home_end and home_acts >= 1 and moved < moves and st.tense == "d":
            p2 = _move(st, place, visited)  # a day that began at home goes on: 。 后来 她 去 超市 ...
            if p2:
                place, moved, also, home_end = p2, moved + 1, False, False
                continue
        if home_acts >= 2 or not _home_step(st, home_acts):
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


def continue_story(st, size):
    """A short plan grown into a longer story: a new sentence that opens with its time (。 下午 ...),
    another place and what one did there, and so on (``extend``)."""
    if st.tense not in ("d", "p", "f") or "sleep" in st.done:  # nothing after going to bed
        return st.spec()
    day_not_night(st)
    home = any(x.get("place") == "home" or x.get("dest") == "home" for x in _clauses(st))
    been = {x.get("dest") for x in _clauses(st)} | {x.get("place") for x in _clauses(st)}
    opts = places_for(st, been | set(FAR) | {"school"})  # not "met john in the park ... went to the park"
    if st.tense == "p":  # what one does in one's free time
        opts = [p for p in opts if p in ("park", "library", "cinema", "pool")] or opts
    if home and st.tense == "d":  # a day that began at home goes out in the afternoon
        opts = [p for p in opts if p in ("restaurant", "cinema", "supermarket", "library", "park", "store")] or opts
    for _ in range(4):
        if not opts:
            return st.spec()
        p2 = st.rng.choice(opts)
        a = act(st, p2)
        if a is not None:
            break
    else:
        return st.spec()
    g = go(st, p2)
    if st.tense == "p":  # on weekends she often goes to the park
        g["freq"] = st.rng.choice(("often", "usually", "sometimes"))
    st.add(st.rng.choice(stop_leads(st)), g)
    st.add("serial", a)
    return extend(st, size, p2, home_ok=st.tense != "p", moves=1)  # a second sentence: two places at most


NIGHT_TIMES = {"last_night": "yesterday", "tonight": "tomorrow", "every_evening": "every_day"}


def day_not_night(st):
    """A long day is not one evening: last night -> yesterday (no pool and cinema after dark)."""
    first = st.items[0] if st.items else {}
    if first.get("time") in NIGHT_TIMES:
        first["time"] = NIGHT_TIMES[first["time"]]
    later = {"stop:afternoon", "stop:evening"} & set(st.items[1::2])
    if first.get("q") == "where" and first.get("time") == "this_morning" and later:
        first["time"] = "today"  # where did she go this morning ? ... in the afternoon ... -> today
