"""Discourse plans from a pupil's life (corpus 4.0): a gift, a visit to the grandparents, helping at
home, a match, a rainy weekend, a school trip, a lost pet, a friend met in the park, an exam, a
holiday by train, a meal cooked together, the zoo, a friend fetched at the station, an early start,
a friend visited. Registered in ``helpers.corpus.stories_plans.PLANS``; each one often runs on in a
second or third sentence (``stories_steps.continue_story``).
"""

from __future__ import annotations

from helpers.corpus.sampler import coref
from helpers.corpus.stories_steps import act, act_at, continue_story, extend, feel, go
from helpers.corpus.story_parts import ANIMALS, SPORTS, group_pron, other_person


def _act(st, v, obj=None, subj=None, **kw):
    c = {"type": "act", "v": v, "tense": kw.pop("tense", st.tense), "neg": False, "q": None,
         "subj": subj or st.he(), **kw}
    if obj is not None:
        c["obj"] = obj
    return c


def _n(n, d="a", **kw):
    return {"k": "noun", "n": n, "d": d, **kw}


def _kin(st, choices):
    return _n(st.rng.choice([k for k in choices if k != st.agent.get("n")]), "poss", poss=st.poss())


def _past(st, times=("yesterday", "last_weekend", "last_week")):
    st.tense = "d"
    return st.rng.choice(times)


def _happy(st, subj=None):
    f = feel(st, "happy", subj=subj)
    f["feel"] = False
    return f


def gift(st, size):
    """bought a gift at the store yesterday , and then gave her mother the gift . her mother was happy ."""
    t = _past(st)
    st.add(None, _act(st, "buy", _n("gift"), subj=st.agent, place="store", time=t))
    kin = _kin(st, ("mother", "father", "grandmother", "sister", "brother"))
    st.add("and_then", _act(st, "give", _n("gift", "the"), io=kin))
    st.add("stop", _happy(st, subj=dict(kin)))
    return continue_story(st, size)


def grandparents(st, size):
    """went to the farm by train last weekend and visited his grandmother . she made lunch , ..."""
    t = _past(st, ("last_weekend", "last_week", "yesterday"))
    g = go(st, "farm", subj=st.agent)
    g["by"], g["time"] = "train", t
    st.add(None, g)
    kin = _kin(st, ("grandmother", "grandfather"))
    st.add("serial", _act(st, "visit", kin))
    coref(kin, st.rng)  # a draw of the seeded rng: the corpus as generated depends on it
    st.add("stop", _act(st, "make", _n(st.rng.choice(("lunch", "dinner")), "bare"), subj=dict(kin)), same=False)
    st.add("stop:afternoon", act_at(st, "farm"), same=False)
    st.add("and_also", _act(st, "help", dict(kin)))  # and he also helped his grandmother -> 还 帮助 了 奶奶
    st.home_end = True  # back home by train in the evening
    return extend(st, size, "farm", moves=0)


def help_home(st, size):
    """helped his mother at home yesterday . he cleaned the room , and then he washed the cups ..."""
    t = _past(st, ("yesterday", "last_weekend", "this_morning"))
    kin = _kin(st, ("mother", "father", "grandmother"))
    st.add(None, _act(st, "help", kin, subj=st.agent, place="home", time=t))
    st.add("stop", _act(st, "clean", _n(st.rng.choice(("room", "house")), "the")))
    st.add("and_then", _act(st, "wash", _n(st.rng.choice(("cup", "shirt")), "the", pl=True)))
    meal = "lunch" if t == "this_morning" else st.rng.choice(("lunch", "dinner"))  # no dinner in the morning
    st.add("stop:after_that", _act(st, "make", _n(meal, "bare"), **{"with": dict(kin)}))
    st.add("stop", _happy(st, subj=coref(kin, st.rng)), same=False)
    return continue_story(st, size) if st.n() < size else st.spec()


def sports_match(st, size):
    """played football at school after school , and also ran . he was tired , but he was happy ."""
    t = _past(st, ("yesterday", "this_morning", "last_weekend"))
    place = st.rng.choice(("school", "park"))
    st.add(None, _act(st, "play", _n(st.rng.choice(SPORTS), "bare"), subj=st.agent, place=place, time=t))
    st.done.add("play")
    st.add("and_also", act(st, place, exclude={"study", "draw"}))
    f = feel(st, "tired")
    f["feel"] = True
    st.add("stop", f)
    st.add("but", _happy(st))
    return continue_story(st, size)


def rainy_weekend(st, size):
    """it rained last weekend , so she stayed at home . she read a book , and also listened to music ."""
    st.tense = "d"
    st.add(None, {"type": "weather", "w": "rain", "tense": "d",
                  "time": st.rng.choice(("last_weekend", "yesterday", "this_morning"))})
    st.add("so_jiu", _act(st, "stay", subj=st.agent, place="home"), same=False)
    st.add("stop", act_at(st, "home", exclude={"clean", "sleep", "cook"}))
    st.add("and_also", act(st, "home", exclude={"clean", "sleep", "cook"}))
    return extend(st, size, "home")


def school_trip(st, size):
    """went to the museum by bus with her classmates , and looked at pictures . in the afternoon ..."""
    t = _past(st, ("yesterday", "last_week", "this_morning"))
    g = go(st, "museum", subj=st.agent)
    g["by"], g["time"] = "bus", t
    g["with"] = _n("classmate", "poss", poss=st.poss(), pl=True)
    st.add(None, g)
    st.add("serial", act(st, "museum"))
    place = st.rng.choice(("zoo", "park"))
    st.add("stop:afternoon", go(st, place))
    st.add("serial", act(st, place))
    return extend(st, size, place, moves=1)


def lost_pet(st, size):
    """lost his dog in the park yesterday , but his sister found the dog there . he was very happy ."""
    t = _past(st, ("yesterday", "this_morning"))  # (not "lost ... last week": the lint of far times)
    pet = st.rng.choice(("dog", "cat"))
    place = st.rng.choice(("park", "school", "station"))
    st.add(None, _act(st, "lose", _n(pet, "poss", poss=st.poss(), zh_poss_drop=True), subj=st.agent,
                      place=place, time=t))
    other = other_person(st.rng, st.agent, pron=st.pron)
    st.add("but", _act(st, "find", _n(pet, "the"), subj=other), same=False)  # found it (there)
    clash = coref(other, st.rng)["p"] == st.pron["p"]  # mary ... her sister ... she: name her again
    st.add("stop", _happy(st, subj=dict(st.agent) if clash else None))
    return continue_story(st, size)


def meet_friend(st, size):
    """met her friend in the park this morning , and they played tennis together . ..."""
    t = _past(st, ("yesterday", "this_morning", "last_weekend"))
    friend = other_person(st.rng, st.agent, pron=st.pron)
    st.add(None, _act(st, "meet", friend, subj=st.agent, place="park", time=t))
    we = group_pron(st.agent, friend, st.rng)
    st.add("and_then", _act(st, "play", _n(st.rng.choice(SPORTS), "bare"), subj=dict(we), together=True),
           same=False)
    st.pron = dict(we)  # the two of them go on together
    st.done.add("play")
    return continue_story(st, size)


def exam_prep(st, size):
    """studied math at home last night , and then read the book again ... (the evening before an exam)"""
    t = _past(st, ("yesterday", "last_night"))
    subject = st.rng.choice(("math", "english", "chinese", "history"))
    st.add(None, _act(st, "study", _n(subject, "bare"), subj=st.agent, place="home", time=t))
    st.done.add("study")
    if t == "last_night":
        st.add("and_also", _act(st, "write", _n("letter")))  # not out after dark: a quiet evening at home
        return extend(st, size, "home", moves=0)
    st.add("stop:afternoon", go(st, "library"))
    st.add("serial", _act(st, "borrow", _n("book", "num", num=2)))
    st.add("stop:evening", act_at(st, "home", exclude={"cook", "clean", "sleep"}))
    return extend(st, size, "home")


def holiday_train(st, size):
    """went to the beach by train last week , and swam . in the afternoon he flew a kite there ..."""
    t = _past(st, ("last_week", "last_weekend", "yesterday"))
    place = st.rng.choice(("beach", "zoo"))
    g = go(st, place, subj=st.agent)
    g["by"], g["time"] = "train", t
    st.add(None, g)
    first = act(st, place)
    st.add("serial", first)
    seen = {first.get("obj", {}).get("n")}  # not "drew a monkey ... saw a monkey"
    later = act_at(st, place)
    if later is not None and later.get("obj") and later["obj"].get("n") in seen:
        later["obj"] = dict(later["obj"], n=next(a for a in ANIMALS if a not in seen and a != "horse"))
    st.add("stop:afternoon", later)
    return extend(st, size, place, moves=1)


def cook_together(st, size):
    """bought vegetables and chicken at the market , and then made dinner with her mother at home ."""
    t = _past(st, ("yesterday", "last_weekend", "this_morning"))
    shop = st.rng.choice(("market", "supermarket"))
    a, b = st.rng.sample(("vegetables", "chicken", "meat", "fish", "potato", "tomato", "egg"), 2)
    items = [_n(x, "bare" if x in ("vegetables", "chicken", "meat") else "num", num=2) for x in (a, b)]
    st.add(None, _act(st, "buy", {"k": "coord", "items": items}, subj=st.agent, place=shop, time=t))
    kin = _kin(st, ("mother", "father", "grandmother", "sister"))
    st.add("and_then", go(st, "home"))
    meal = "lunch" if t == "this_morning" else st.rng.choice(("lunch", "dinner"))  # no dinner in the morning
    st.add("serial", _act(st, "make", _n(meal, "bare"), **{"with": dict(kin)}))
    st.done.add("cook")
    st.add("stop", _happy(st, subj=coref(kin, st.rng)), same=False)
    return continue_story(st, size) if st.n() < size else st.spec()


def zoo_day(st, size):
    """went to the zoo with her brother , and saw two pandas . they also drew a tiger ..."""
    t = _past(st, ("yesterday", "last_weekend", "this_morning"))
    other = other_person(st.rng, st.agent, pron=st.pron)
    g = go(st, "zoo", subj=st.agent)
    g["time"], g["with"] = t, other
    st.add(None, g)
    animals = st.rng.sample([a for a in ANIMALS if a != "horse"], 2)
    st.add("serial", _act(st, "see", _n(animals[0], "num", num=st.rng.randint(2, 3))))
    we = group_pron(st.agent, other, st.rng)
    st.add("stop", _act(st, "draw", _n(animals[1]), subj=dict(we)), same=False)
    st.pron = dict(we)
    st.done |= {"see", "draw"}
    return continue_story(st, size)


def station_wait(st, size):
    """waited for her grandmother at the station , and then they went home together by bus ."""
    t = _past(st, ("yesterday", "this_morning", "last_weekend"))
    kin = _kin(st, ("grandmother", "grandfather", "uncle", "aunt"))
    st.add(None, _act(st, "wait_for", kin, subj=st.agent, place="station", time=t))
    we = group_pron(st.agent, kin, st.rng)
    g = go(st, "home", subj=dict(we))
    g["by"], g["together"] = "bus", True
    st.add("and_then", g, same=False)
    st.pron = dict(we)
    st.add("stop:evening", act_at(st, "home", exclude={"sleep", "clean"}), same=False)
    return extend(st, size, "home")


def early_start(st, size):
    """got up early this morning , and then ran in the park . after that he went to the library ..."""
    t = _past(st, ("this_morning", "yesterday"))
    st.add(None, _act(st, "get_up", subj=st.agent, time=t, early=True))
    place = st.rng.choice(("park", "beach"))
    st.add("and_then", go(st, place))
    st.add("serial", _act(st, st.rng.choice(("run", "walk"))))
    st.done |= {"run", "walk"}
    return extend(st, size, place, moves=2)


def visit_friend(st, size):
    """visited her friend yesterday , and brought a cake . they ate the cake together ..."""
    t = _past(st, ("yesterday", "last_weekend"))
    friend = other_person(st.rng, st.agent, pron=st.pron)
    st.add(None, _act(st, "visit", friend, subj=st.agent, time=t))
    food = st.rng.choice(("cake", "watermelon"))
    st.add("and_also", _act(st, "bring", _n(food)))
    we = group_pron(st.agent, friend, st.rng)
    st.add("stop", _act(st, "eat", _n(food, "the"), subj=dict(we), together=True), same=False)
    st.pron = dict(we)
    st.done.add("eat")
    return continue_story(st, size)


LIFE_PLANS = {
    "gift": (3, 10, gift),
    "grandparents": (5, 10, grandparents),
    "help_home": (5, 10, help_home),
    "sports_match": (4, 10, sports_match),
    "rainy_weekend": (4, 10, rainy_weekend),
    "school_trip": (4, 10, school_trip),
    "lost_pet": (3, 10, lost_pet),
    "meet_friend": (2, 10, meet_friend),
    "exam_prep": (2, 10, exam_prep),
    "holiday_train": (3, 10, holiday_train),
    "cook_together": (4, 10, cook_together),
    "zoo_day": (3, 10, zoo_day),
    "station_wait": (3, 10, station_wait),
    "early_start": (3, 10, early_start),
    "visit_friend": (3, 10, visit_friend),
}
