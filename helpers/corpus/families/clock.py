"""Time: days, months, seasons, dates and clock times (syllabus: 时间表达): i get up at six thirty -> 我 六 点 半 起床.

A time phrase moves before the verb in Chinese (we play football on saturday -> 我们 星期六 踢 足球);
this reordering is the point. Words come from ``data/calendar.tsv`` and ``data/routines.tsv``; numbers
from ``numerals`` (two o'clock -> 两 点, "o'clock" is one token). Patterns (``PATTERNS``):

* at: S V at TIME -> S TIME V; when: what time do you get up ? i get up at six . -> 你 几 点 起床 ？ 我 六 点 起床 。
* what_time: what time is it ? it is half past eight . -> 现在 几 点 ？ 现在 八 点 半 。
* on_day / in_month: S V on monday / in may / in winter -> S 星期一 / 五月 / 冬天 V
* what_day: what day is it today ? it is monday . -> 今天 星期 几 ？ 今天 星期一 。
* weather: it is cold in winter -> 冬天 天气 很 冷 (it - 天气, as in the grammar)
* birthday: my birthday is on may fourth -> 我 的 生日 是 五月 四 号 (ref 五月 四 日); may twenty second ->
  五月 二十 二 号 (twenty-二十, second-二)
* facts: there are thirty one days in may -> 五月 有 三十 一 天
* best: which season do you like best ? i like autumn best . -> 你 最 喜欢 哪个 季节 ？ 我 最 喜欢 秋天 。
"""

from __future__ import annotations

from helpers.corpus.families.numerals import clock_time, number, number_zh, ordinal_words
from helpers.corpus.families.subjects import person, possessive, pron_tokens, pronoun, sample_subject, subject
from helpers.corpus.lexicon import PRONOUNS
from helpers.corpus.syllabus import read_tsv
from helpers.corpus.tokens import en, ens, finish, zh

PATTERNS = ("at", "at", "when", "what_time", "on_day", "in_month", "what_day", "weather", "birthday", "facts",
            "best")
DAYS_IN = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # february: "twenty nine days" in a leap year
MINUTES = (10, 15, 20, 40, 45, 50)
CLOCK_FORMS = ("oclock", "thirty", "half", "min", "quarter")
SEASON_ADJ = {"spring": "warm", "summer": "hot", "autumn": "cool", "winter": "cold"}
ADJ_ZH = {"warm": "暖和", "hot": "热", "cool": "凉快", "cold": "冷"}
ADULTS = ("mother", "father", "uncle", "aunt", "grandmother", "grandfather", "neighbor")
MONTH_ADJ = {0: "cold", 1: "cold", 5: "hot", 6: "hot", 7: "hot", 11: "cold"}  # month index -> weather


def _rows(kind):
    return tuple(r for r in read_tsv("calendar") if r["kind"] == kind)


def _routines(when):
    return tuple(i for i, r in enumerate(read_tsv("routines")) if when in r["when"])


def _hours(i):
    """The clock hours routine ``i`` fits: "11-1" -> (11, 12, 1); "" -> 1-12."""
    text = read_tsv("routines")[i]["hours"]
    if not text:
        return tuple(range(1, 13))
    a, b = (int(x) for x in text.split("-"))
    return tuple(range(a, b + 1)) if a <= b else tuple(range(a, 13)) + tuple(range(1, b + 1))


def _subject_for(rng, act, prons=("i", "you", "he", "she", "we", "they"), owners=("i", "you", "he", "she")):
    """A subject that does the routine: no mother who goes to school or does homework."""
    while True:
        s = sample_subject(rng, prons=prons, owners=owners)
        if not (read_tsv("routines")[act]["kid"] and s["k"] == "rel" and s["n"] in ADULTS):
            return s


def sample(rng) -> dict:
    pat = rng.choice(PATTERNS)
    spec = {"pat": pat, "subj": sample_subject(rng)}
    form = rng.choice(CLOCK_FORMS)
    spec["time"] = {"h": rng.randint(1, 12), "form": form, "m": rng.choice(MINUTES) if form == "min" else 0}
    if pat in ("at", "when"):
        spec["act"] = rng.choice(_routines("c"))
        spec["time"]["h"] = rng.choice(_hours(spec["act"]))
        spec["every"] = pat == "at" and rng.random() < 0.3
        if pat == "when":  # a question: about you, him, her, them, not about me
            spec["subj"] = _subject_for(rng, spec["act"], ("you", "he", "she", "they"), ("you", "he", "she"))
        else:
            spec["subj"] = _subject_for(rng, spec["act"])
    elif pat == "on_day":
        spec.update(act=rng.choice(_routines("d")), day=rng.randrange(7))
        spec["subj"] = _subject_for(rng, spec["act"])
    elif pat == "in_month":
        season = rng.random() < 0.5
        act = rng.choice(_routines("s"))
        fits = read_tsv("routines")[act]["seasons"].split()
        rows = _rows("season" if season else "month")
        when = rng.choice([i for i, r in enumerate(rows) if not fits or r["season"] in fits])
        spec.update(act=act, when=when, season=season)
    elif pat == "what_day":
        spec.update(day=rng.randrange(7), which=rng.choice(("today", "q", "tomorrow", "yesterday")))
    elif pat == "weather":
        season = rng.random() < 0.5
        spec.update(when=rng.randrange(4) if season else rng.choice(list(MONTH_ADJ)), season=season,
                    very=rng.random() < 0.3)
    elif pat == "birthday":
        month = rng.randrange(12)
        spec.update(month=month, date=rng.randint(1, DAYS_IN[month] - (month == 1)), q=rng.random() < 0.4)
    elif pat == "facts":
        spec["month"] = rng.randrange(-2, 12)  # -2: days in a week, -1: months in a year
    elif pat == "best":
        spec.update(season=rng.randrange(4), subj=sample_subject(rng, prons=("you", "he", "she", "they"),
                                                                  owners=("you", "he", "she")))
    return spec


def render(spec):
    return globals()["_" + spec["pat"]](spec)


def _act(i, s):
    """(English tokens, Chinese tokens) of routine ``i`` with the verb agreeing with subject ``s``."""
    r = read_tsv("routines")[i]
    words = r["en"].split()
    if person(s) == "3s":
        words[0] = r["en3"]
    e = [en(w) for w in words]
    zw = r["zh"].split()
    sure, poss = {}, {}
    for item in r["links"].split():
        kind = "-" if "-" in item else "~"
        a, b = item.split(kind)
        (sure if kind == "-" else poss).setdefault(int(b), []).append(e[int(a)])
    return e, [zh(w, sure.get(k, ()), poss.get(k, ())) for k, w in enumerate(zw)]


def _plain(z):
    return [zh(t[0]) for t in z]


def _with_alt(z_before, z_time, alt, z_after):
    """The alternative phrasing of a sentence whose clock time has another Chinese form (or none)."""
    return [] if alt is None else [_plain(z_before) + [zh(w) for w in alt] + _plain(z_after)]


def _at(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_act, z_act = _act(spec["act"], s)
    e_t, z_t, alt = clock_time(spec["time"])
    e_at = en("at")
    e = es + e_act + [e_at] + e_t
    if spec.get("every"):  # i get up at six every day -> 我 每天 六 点 起床
        e_ev, e_day = ens("every day")
        e += [e_ev, e_day]
        zs = zs + [zh("每天", (e_ev, e_day))]
    return finish(e, zs + z_t + z_act, tags=("time_front",), alternatives=_with_alt(zs, z_t, alt, z_act))


def _when(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_what, e_time = ens("what time")
    e_do = en("does" if person(s) == "3s" else "do")
    e_base, z_base = _act(spec["act"], {"k": "pron", "p": "i"})
    zq = zs + [zh("几", (e_what,)), zh("点", (e_time,))] + z_base
    eq = [e_what, e_time, e_do] + es + e_base + [en("?")]
    a = {"k": "pron", "p": pronoun(s)}
    e_p, z_p = pron_tokens(pronoun(s))
    e_act, z_act = _act(spec["act"], a)
    e_t, z_t, alt = clock_time(spec["time"])
    e_at = en("at")
    zq = zq + [zh("？", (eq[-1],))]
    return finish(eq + [e_p] + e_act + [e_at] + e_t, zq + [z_p] + z_t + z_act, tags=("time_front", "wh_question"),
                  alternatives=_with_alt(zq + [z_p], z_t, alt, z_act))


def _what_time(spec):
    e_q = ens("what time is it ?")
    zq = [zh("现在", (e_q[3],)), zh("几", (e_q[0],)), zh("点", (e_q[1],)), zh("？", (e_q[4],))]
    e_it, e_is = ens("it is")
    e_t, z_t, alt = clock_time(spec["time"])
    z = zq + [zh("现在", (e_it,))] + z_t
    alts = [_plain(zq[:3]) + [zh("了"), zh("？"), zh("现在")] + _plain(z_t)]
    if alt:
        alts.append(_plain(zq) + [zh("现在")] + [zh(w) for w in alt])
    return finish(e_q + [e_it, e_is] + e_t, z, tags=("time_front",), alternatives=alts)


def _day_word(i, e):
    r = _rows("day")[i]
    return zh(r["zh"], (e,)), r["alt"]


def _on_day(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_act, z_act = _act(spec["act"], s)
    e_on, e_day = en("on"), en(_rows("day")[spec["day"]]["en"])
    z_day, alt = _day_word(spec["day"], e_day)
    z_day = zh(z_day[0], z_day[1] + (e_on,))
    alts = [_plain(zs) + [zh(alt)] + _plain(z_act)] if alt else []
    return finish(es + e_act + [e_on, e_day], zs + [z_day] + z_act, tags=("time_front",), alternatives=alts)


def _in_month(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_act, z_act = _act(spec["act"], s)
    r = _rows("season" if spec["season"] else "month")[spec["when"]]
    e_in, e_w = en("in"), en(r["en"])
    return finish(es + e_act + [e_in, e_w], zs + [zh(r["zh"], (e_w,), (e_in,))] + z_act, tags=("time_front",))


def _what_day(spec):
    e_day = en(_rows("day")[spec["day"]]["en"])
    z_day, alt = _day_word(spec["day"], e_day)
    which = spec["which"]
    if which == "q":  # what day is it today ? it is monday . -> 今天 星期 几 ？ 今天 星期一 。
        e_q = ens("what day is it today ?")
        zq = [zh("今天", (e_q[3], e_q[4])), zh("星期", (e_q[1],)), zh("几", (e_q[0],)), zh("？", (e_q[5],))]
        e_it, e_is = ens("it is")
        z = zq + [zh("今天", (e_it,)), z_day]
        alts = [_plain(zq) + [zh("今天"), zh("是"), zh(z_day[0])]]
        alts += [_plain(z[:-1]) + [zh(alt)]] if alt else []
        return finish(e_q + [e_it, e_is, e_day], z, alternatives=alts, tags=("wh_question",))
    e_w, e_is = en(which), en("was" if which == "yesterday" else "is")
    z_w = {"today": "今天", "tomorrow": "明天", "yesterday": "昨天"}[which]
    z = [zh(z_w, (e_w,)), zh("是", (e_is,)), z_day]
    alts = [[zh(z_w), zh(z_day[0])]] + ([[zh(z_w), zh("是"), zh(alt)]] if alt else [])
    return finish([e_w, e_is, e_day], z, alternatives=alts)


def _weather(spec):
    r = _rows("season" if spec["season"] else "month")[spec["when"]]
    adj = SEASON_ADJ[r["en"]] if spec["season"] else MONTH_ADJ[spec["when"]]
    e_it, e_is = ens("it is")
    e = [e_it, e_is]
    e_in, e_w, e_adj = en("in"), en(r["en"]), en(adj)
    z_w = zh(r["zh"], (e_w,), (e_in,))
    if spec["very"]:
        e_very = en("very")
        e.append(e_very)
        hen = zh("很", (e_very,))
    else:
        hen = zh("很", (), (e_is,))
    z = [z_w, zh("天气", (e_it,)), hen, zh(ADJ_ZH[adj], (e_adj,))]
    return finish(e + [e_adj, e_in, e_w], z, tags=("time_front",), alternatives=[[zh(z_w[0]), zh("很"), zh(z[3][0])]])


def _date(spec, on=()):
    """(English tokens, Chinese tokens, alternative words) of a date: may fourth -> 五月 四 号 (五月 四 日)."""
    r = _rows("month")[spec["month"]]
    e_m = en(r["en"])
    e_o = [en(w) for w in ordinal_words(spec["date"])]
    z_n = [zh(w, (e,)) for w, e in zip(number_zh(spec["date"]), e_o)]  # twenty-二十 first-一
    z = [zh(r["zh"], (e_m,) + on)] + z_n + [zh("号", (), tuple(e_o))]
    return [e_m] + e_o, z, [r["zh"]] + [t[0] for t in z_n] + ["日"]


def _birthday(spec):
    s = spec["subj"]
    e_p, z_p = possessive(s)
    e_b, e_is, e_on = ens("birthday is on")
    e_d, z_d, alt = _date(spec, (e_on,))
    z_b = [zh("生日", (e_b,)), zh("是", (e_is,))]
    e = e_p + [e_b, e_is, e_on] + e_d
    z = z_p + z_b + z_d
    if not spec["q"]:
        return finish(e, z, tags=("possessive",), alternatives=[_plain(z_p + z_b) + [zh(w) for w in alt]])
    # when is your birthday ? my birthday is on may fourth . -> 你 的 生日 是 几 月 几 号 ？ 我 的 生日 是 …
    owner = {"k": "pron", "p": "you"} if s == {"k": "pron", "p": "i"} else s
    e_w, e_is2 = ens("when is")
    e_o, z_o = possessive(owner)
    e_b2, e_qm = ens("birthday ?")
    zq = z_o + [zh("生日", (e_b2,)), zh("是", (e_is2,)), zh("几", (e_w,)), zh("月", (e_w,)), zh("几", (e_w,)),
                zh("号", (e_w,)), zh("？", (e_qm,))]
    return finish([e_w, e_is2] + e_o + [e_b2, e_qm] + e, zq + z, tags=("possessive", "wh_question"),
                  alternatives=[_plain(zq + z_p + z_b) + [zh(w) for w in alt]])


def _facts(spec):
    e_there, e_are = ens("there are")
    you = zh("有", (e_there,), (e_are,))
    m = spec["month"]
    if m == -2:  # there are seven days in a week -> 一 个 星期 有 七 天
        e = ens("there are seven days in a week")
        z = [zh("一", (e[5],)), zh("个", (e[6],), (e[5],)), zh("星期", (e[6],)), zh("有", (e[0],), (e[1],)),
             zh("七", (e[2],)), zh("天", (e[3],))]
        return finish(e, z, tags=("number", "measure_word"), alternatives=[[zh("一"), zh("周"), zh("有"), zh("七"),
                                                                              zh("天")]])
    if m == -1:  # there are twelve months in a year -> 一 年 有 十二 个 月
        e = ens("there are twelve months in a year")
        z = [zh("一", (e[5],)), zh("年", (e[6],)), zh("有", (e[0],), (e[1],)), zh("十二", (e[2],)),
             zh("个", (e[3],), (e[2],)), zh("月", (e[3],))]
        return finish(e, z, tags=("number", "measure_word"))
    r = _rows("month")[m]
    e_n, z_n = number(DAYS_IN[m] - (m == 1))
    e_days, e_in, e_m = en("days"), en("in"), en(r["en"])
    z = [zh(r["zh"], (e_m,), (e_in,)), you] + z_n + [zh("天", (e_days,))]
    return finish([e_there, e_are] + e_n + [e_days, e_in, e_m], z, tags=("number",))


def _best(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_which, e_season = ens("which season")
    e_do = en("does" if person(s) == "3s" else "do")
    e_like, e_best, e_qm = ens("like best ?")
    zq = zs + [zh("最", (e_best,)), zh("喜欢", (e_like,)), zh("哪个", (e_which,)), zh("季节", (e_season,)),
               zh("？", (e_qm,))]
    p = pronoun(s)
    e_p, z_p = pron_tokens(p)
    e_like2 = en("likes" if PRONOUNS[p][4] == "3s" else "like")
    r = _rows("season")[spec["season"]]
    e_s, e_best2 = en(r["en"]), en("best")
    za = [z_p, zh("最", (e_best2,)), zh("喜欢", (e_like2,)), zh(r["zh"], (e_s,))]
    return finish([e_which, e_season, e_do] + es + [e_like, e_best, e_qm, e_p, e_like2, e_s, e_best2], zq + za,
                  tags=("wh_question",))
