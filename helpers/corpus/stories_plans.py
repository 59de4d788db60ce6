"""The discourse plans of the long sentences (corpus 3.0, 4.0): what happens in a story, in which order.

Each plan is a function ``plan(st, size) -> chain spec`` over a ``Story`` (``helpers.corpus.stories``, steps in ``stories_steps``)
that grows to about ``size`` clauses; ``PLANS`` maps its name to (fewest clauses, most clauses,
function). A plan picks the relation of each step, and so its connective: a sequence (and / and then
/ after that), a cause (so, because, so -> 就), an addition (and also -> 还, another person too -> 也),
a contrast of two parallel things (while -> 而, but -> 但是) or a plan that rain spoils (but -> 可是).
A plan made for fewer clauses than a long story needs runs on in a second sentence
(``stories.sample_story``). The check (``python -m helpers.corpus check``) counts the plans: at least
40 reach ``long`` and none takes more than 8 % of it.
"""

from __future__ import annotations

from helpers.corpus.sampler import coref
from helpers.corpus.stories_life import LIFE_PLANS
from helpers.corpus.stories_people import (
    ability,
    compare_likes,
    help_family,
    lost_found,
    preference,
    same_too,
    skill_practice,
    teacher_day,
    two_habits,
    why_because,
)
from helpers.corpus.stories_steps import (
    BUSY_PLACES,
    act,
    act_at,
    do_conn,
    extend,
    feel,
    go,
    outing_core,
    places_for,
    timed,
)
from helpers.corpus.story_parts import (
    DRINK,
    FOOD,
    GROCERIES,
    TIRING,
    _base,
    _contrast,
    _tense_ok,
    other_person,
)


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
    grown = st.agent.get("n") in ("mother", "father", "grandmother", "grandfather", "uncle", "aunt", "teacher",
                                  "doctor", "nurse")  # my aunt goes to the office, not to school to play
    place = st.rng.choice(("office", "library") if grown else ("school", "office", "library"))
    g = go(st, place)
    st.add("and_then", g)
    st.add(do_conn(st), act(st, place))
    return extend(st, size, place, home_ok=False, moves=2)  # a routine: not "every morning ... cooks at home"


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
                      "place": st.rng.choice(("office", "hospital", "school", "store")), "shift": True})
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
    f = feel(st, "tired")
    f["feel"] = True
    st.add("stop", f)  # . he was tired , so he went home -> 。 他 觉得 很 累 ， 就 回 家 了
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
    # not "did not go , because she was busy , so she ...": a new sentence says what she did instead
    home = act_at(st, "home", exclude={"clean", "cook"} if adj == "tired" else {"sleep", "watch", "listen_to",
                                                                                "read"})
    st.add("stop", home)
    return extend(st, size, "home", moves=0 if adj == "tired" else 1)


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
    st.add("stop", act_at(st, "home", exclude={"clean"}))  # too tired for the park: the day stays at home
    return extend(st, size, "home", moves=0)


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
    st.add("so_jiu", g, same=False)
    st.add("stop", act_at(st, "home", exclude={"clean", "sleep"}))
    return extend(st, size, "home")


def if_rain(st, size):
    """if it rains tomorrow , we will not go to the park , and will watch a movie at home ..."""
    st.tense = "f"
    st.add(None, {"type": "weather", "w": "rain", "tense": "p", "time": "tomorrow", "if": True})
    g = go(st, st.rng.choice(("park", "beach", "zoo", "pool")), subj=st.agent)
    g["neg"] = True
    g.pop("by", None)
    st.add("cons", g, same=False)
    st.add("stop", act_at(st, "home", exclude={"clean", "sleep"}))
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
    if st.agent["k"] == "coord":  # tom and lily went ..., while lily went ...: one person each
        st.agent = st.agent["items"][0]
        st.pron = coref(st.agent, st.rng)
    p1 = outing_core(st)
    other = other_person(st.rng, st.agent, pron=st.pron)
    she = coref(other, st.rng)
    p2 = st.rng.choice([p for p in places_for(st, {p1})])
    st.add("while", go(st, p2, subj=other), same=False)
    a2 = act(st, p2, subj=dict(she), exclude=st.done)
    st.add(do_conn(st), a2)
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
    st.add("serial", {"type": "act", "v": "visit", "tense": st.tense, "neg": False, "q": None, "subj": st.he(),
                      "obj": kin})  # 去 医院 看望 了 奶奶: one event
    return extend(st, size, "hospital", moves=1)  # after the hospital, one more place or home


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
    **LIFE_PLANS,
}
