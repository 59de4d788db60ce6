"""Steps shared by the discourse plans (``helpers.corpus.stories_plans``, ``stories_people``).

Going somewhere (``go``), doing what one does there (``act``, ``act_at``), a feeling (``feel``), the
places that fit the story so far (``places_for``), and ``extend``: how a story grows to the clauses it
needs with steps that follow from the last one (one more thing at the same place, another place, the
way home and an evening at home in its order).
"""

from __future__ import annotations

from helpers.corpus.stories import (
    ACTIVITIES,
    OUTINGS,
    TIRING,
    _activity,
    _first_time,
    _go,
    _tense_ok,
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
