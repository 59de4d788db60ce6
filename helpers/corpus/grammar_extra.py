"""Clause types of corpus 3.0 that are not "subject + verb": the weather and "there is / are".

* weather: "it is cold today" -> 今天 天气 很 冷 (the dummy "it" is sure to 天气, as "the weather" is);
  "it is raining now" -> 现在 正在 下雨, "it rained yesterday" -> 昨天 下雨 了, "it will rain tomorrow"
  -> 明天 会 下雨 (it and the verb are both sure to 下雨).
* existence: "there is a cat under the table" -> 桌子 下面 有 一 只 猫 (the place first, then 有; "there"
  is sure to 有, is / are possible); "there is no milk in the kitchen" -> 厨房 里 没有 牛奶; the
  question "is there a cat in the garden ?" -> 花园 里 有 猫 吗 ？

Both are rendered with the helpers of ``helpers.corpus.grammar`` and follow its alignment rule.
"""

from __future__ import annotations

from helpers.corpus.grammar import _be, _e, _time_tokens, _z, is_plural, render_np
from helpers.corpus.lexicon import ADJECTIVES, LOCATIVES, PLACES, RAIN, THERE


def render_weather(c, tags):
    tense, neg, q = c.get("tense", "p"), c.get("neg", False), c.get("q")
    t_en, t_zh = _time_tokens(c["time"], tags) if c.get("time") else ([], [])
    if c.get("rain"):  # it is raining -> 正在 下雨; it rained -> 下雨 了; it will rain -> 会 下雨
        e_it = _e("it")
        base, s3, past, ing, zh_rain = RAIN
        if tense == "g":
            e_aux, e_v = _e("is"), _e(ing)
        elif tense == "f":
            e_aux, e_v = _e("will"), _e(base)
        else:
            e_aux, e_v = (_e("did"), _e(base)) if neg else (None, _e(past))
        e_not = _e("not") if neg else None
        p_en, p_zh = [], []
        if c.get("place") in THERE:  # it is raining here -> 这里 正在 下雨
            ep = _e(c["place"])
            p_en, p_zh = [ep], [_z(THERE[c["place"]], (ep,))]
        elif c.get("place"):  # it rained in the city -> 城里 下雨 了
            words, prep, zh_place = PLACES[c["place"]]
            p_en = [_e(prep)] + [_e(w) for w in words]
            p_zh = [_z(zh_place, (p_en[-1],), (p_en[0],))]
        if q == "yn":  # will it rain tomorrow ? -> 明天 会 下雨 吗 ？
            en = [e_aux, e_it, e_v] + p_en + t_en
            tags.add("yn_question")
        else:
            en = [e_it] + ([e_aux] if e_aux else []) + ([e_not] if e_not else []) + [e_v] + p_en + t_en
        zh = list(t_zh) + p_zh
        if neg:
            zh.append(_z("没" if tense == "d" else "不", (e_not,), (e_aux,) if tense == "d" else ()))
            tags.add("negation")
        if tense == "f":
            zh.append(_z("会", (e_aux,)))
        if tense == "g":
            zh.append(_z("正在", (), (e_aux, e_v)))
            tags.add("progressive")
        zh.append(_z(zh_rain, (e_it, e_v)))
        if tense == "d" and not neg:
            zh.append(_z("了", (), (e_v,)))
            tags.add("aspect_le")
        if q == "yn":
            zh.append(_z("吗", (), (e_aux,)))
        return en, zh
    adj = c["adj"]
    e_a = _e(adj)
    if c.get("it", True):
        e_s = [_e("it")]
    else:
        e_s = [_e("the"), _e("weather")]
    e_be = _e(_be("3s", tense))
    e_not = _e("not") if neg else None
    e_very = _e("very") if c.get("very") else None
    s_zh = [_z("天气", (e_s[-1],))]
    if e_very:
        a_zh = [_z("很", (e_very,)), _z(ADJECTIVES[adj][0], (e_a,))]
    elif neg or q == "yn":
        a_zh = [_z(ADJECTIVES[adj][0], (e_a,))]
    else:
        a_zh = [_z("很", (), (e_be,)), _z(ADJECTIVES[adj][0], (e_a,))]
    pred_en = ([e_very] if e_very else []) + [e_a]
    if q == "yn":
        en = [e_be] + e_s + pred_en + t_en
        tags.add("yn_question")
        return en, t_zh + s_zh + a_zh + [_z("吗", (), (e_be,))]
    en = e_s + [e_be] + ([e_not] if neg else []) + pred_en + t_en
    zh = t_zh + s_zh + ([_z("不", (e_not,))] if neg else []) + a_zh
    if neg:
        tags.add("negation")
    return en, zh


def render_exist(c, tags):
    """there is / are NP PREP PLACE -> PLACE (LOC) 有 NP; no -> 没有; is there ... ? -> ... 有 NP 吗 ？"""
    q, neg = c.get("q"), c.get("neg", False)
    np = dict(c["np"])
    if neg or q == "yn":  # there is no milk / is there a cat ? -> 没有 牛奶 / 有 猫 吗
        np["drop"] = True
    if neg:
        np = {k: v for k, v in np.items() if k not in ("num", "drop", "adj")}
        np["d"] = "bare"
    e_there = _e("there")
    e_be = _e("are" if is_plural(np) else "is")
    e_no = _e("no") if neg else None
    n_en, n_zh = render_np(np, "obj", tags)
    if c.get("place"):
        words, prep, zh = PLACES[c["place"]]
        ep = _e(prep)
        ew = [_e(w) for w in words]
        l_en = [ep] + ew
        l_zh = [_z(zh, (ew[-1],)), _z("里", (ep,))]
    else:
        lwords, lzh = LOCATIVES[c["loc"]]
        el = [_e(w) for w in lwords]
        land_en, land_zh = render_np(c["land"], "obj", tags)
        l_en = el + land_en
        l_zh = land_zh + [_z(lzh, el)]
    tags.add("place_front")
    you = _z("没有", (e_there, e_no), (e_be,)) if neg else _z("有", (e_there,), (e_be,))
    if neg:
        tags.add("negation")
    if q == "yn":
        tags.add("yn_question")
        return [e_be, e_there] + n_en + l_en, l_zh + [you] + n_zh + [_z("吗", (), (e_be,))]
    return [e_there, e_be] + ([e_no] if neg else []) + n_en + l_en, l_zh + [you] + n_zh
