"""Render sentence specifications into aligned English/Chinese token sequences.

A *spec* is a small dict that says what a clause means (subject, verb, object, tense, negation,
question type, time, place, ...). ``render(spec)`` turns it into English tokens, Chinese tokens and
the gold word alignment; ``helpers.corpus.sampler`` draws random specs. Keeping meaning (the spec) apart
from surface form (this module) is what lets the same code render the nine sentences of DESIGN.md §4
(see ``design_examples``) and the random corpus.

Word order rules (English -> Chinese), the reorderings that make attention interesting:

* time and place phrases move before the verb:  S V O in-PLACE TIME  ->  S TIME 在 PLACE V O
* relative clauses and adjectives move before the noun, with 的:  the cat that i saw -> 我 看见 的 那 只 猫
* wh-words stay in place (你 买 了 什么 ？, 你 怎么 去 学校 ？), yes/no questions add 吗, no auxiliary
* numeral / demonstrative and measure word are separate tokens: 三 辆 车, 这 本 书, 几 个 苹果; "the" is
  bare (书), 那 + measure word before a relative clause, 们 on a human plural (孩子 们); after 是 a
  profession takes 一 名 (我 是 一 名 老师), since the polite 位 is for other people (那 位 老师)
* aspect: 在 V for an ongoing action (她 在 看 书), V 了 O for a completed action on a specific or
  counted object (吃 了 一 个 苹果), sentence-final 了 otherwise (喝 茶 了)
* modals: can -> 会 for a learned skill (会 游泳, and speaks chinese -> 会 说 中文), 可以 for asking
  permission (我 可以 打开 窗户 吗 ？), 能 otherwise; will -> 会
* negation scope: does not V every day -> 不是 每天 都 V; past 没, present / future 不, have -> 没有
* coordination: anna and lily -> 安娜 和 莉莉; between clauses "and" is ， + 还 for the same agent
  (， 他 还 写 了 一 封 信), but -> 但是, because -> 因为, so -> 所以, and then -> 然后

Alignment rule (links are (source_index, target_index), sure ⊆ possible):

1. Content words get *sure* links: nouns, verbs, adjectives, pronouns, names, numerals and "a"
   (three -> 三, a -> 一), demonstratives (this -> 这), negation (not -> 不/没/不是), will/can -> 会/能/可以,
   wh-words, and -> 和 / 还, prepositions that have a Chinese counterpart (in/at -> 在, on -> 上),
   connectives (but -> 但是) and punctuation (. -> 。, ? -> ？, "," -> ，). Many-to-one is allowed:
   every day -> 每天, how many -> 几.
2. A measure word is *sure* to its noun (cars -> 辆, or cups -> 杯 in "three cups of tea") and
   *possible* to its numeral or determiner (three~辆, a~名, this~本, the~那).
3. Chinese function tokens get *possible* links to the English word that triggers them, or none:
   的 -> the adjective / relative pronoun / possessive (red, that, my, 's); 了 -> the past-tense verb
   (or "did"); 吗 -> the fronted auxiliary (do, did, is, will, can) and the "?"; 很 -> the copula
   (is/was) or sure to "very"; 在 of an ongoing action -> am/is/are and the -ing verb; 都 -> every;
   们 -> the plural noun and "the"; do/does/did -> 不/没/不是 in a negation.
4. English words with no counterpart (of in "a cup of tea", to in "go to school", the in "the
   book") get a possible link to the word they belong to (of -> 杯, to -> 去) or none.

Every sure link is also a possible link, and every English content word has a sure link
(``python -m helpers.corpus check`` counts the pairs where one has none: 0).
"""

from __future__ import annotations

from helpers.corpus.lexicon import (
    ADJECTIVES,
    BY,
    COME,
    CONTAINERS,
    FREQ,
    GO,
    INTRANSITIVE,
    LOCATIVES,
    MEET_PF,
    NAMES,
    NEVER_ZH,
    NOUNS,
    NUMBERS_EN,
    NUMBERS_ZH,
    PARTICLE_I,
    PLACES,
    PLAY_ZH,
    PRONOUNS,
    THERE,
    TIMES,
    VERBS,
    WH_ZH,
)
from helpers.corpus.tokens import en as _e  # an English token
from helpers.corpus.tokens import zh as _z  # a Chinese token with its links

VOWELS = frozenset("aeiou")
BE_PRES = {"1s": "am", "3s": "is"}
BE_PAST = {"1s": "was", "3s": "was"}


def person_of(np) -> str:
    """Agreement person of a noun phrase: 1s, 2, 3s, 1p, 3p."""
    if np["k"] == "pron":
        return PRONOUNS[np["p"]][4]
    if np["k"] in ("name", "who", "place"):
        return "3s"
    if np["k"] == "coord":
        return "3p"
    return "3p" if is_plural(np) else "3s"


def is_plural(np) -> bool:
    if np["k"] in ("coord", "place"):
        return np["k"] == "coord"
    if np["k"] == "noun" and NOUNS[np["n"]].sg.endswith("s") and (NOUNS[np["n"]].mass or
                                                                   NOUNS[np["n"]].sg == NOUNS[np["n"]].pl):
        return True  # the noodles are delicious; my parents are tired
    d = np.get("d")
    if d in ("these", "those", "howmany") or np.get("pl"):
        return True
    if d == "num":
        return np["num"] > 1
    return d == "bare" and not NOUNS[np["n"]].mass


def gender_of(np) -> str:
    if np["k"] == "pron":
        return PRONOUNS[np["p"]][5]
    if np["k"] == "name":
        return NAMES[np["n"]][1]
    if np["k"] == "coord":
        genders = {gender_of(x) for x in np["items"]}
        return genders.pop() if len(genders) == 1 else ""
    return NOUNS[np["n"]].gender if np["k"] == "noun" else ""


# --------------------------------------------------------------------------- noun phrases
def _adj_zh(adj, e, noun, tags):
    stem, kind, _ = ADJECTIVES[adj]
    if adj == "delicious" and "drink" in noun.cls:
        stem = "好喝"
    if kind == "mono":
        return [_z(stem, (e,))]
    tags.add("adjective_de")
    if kind == "hende":
        return [_z("很", (), (e,)), _z(stem, (e,)), _z("的", (), (e,))]
    return [_z(stem, (e,)), _z("的", (), (e,))]


def _place_np(np):
    words, _prep, zh = PLACES[np["n"]]
    ew = [_e(w) for w in words]
    return ew, [_z(zh, (ew[-1],))]


def render_np(np, role, tags):
    """English tokens, Chinese tokens of a noun phrase (role 'subj' or 'obj' picks the pronoun case).

    Numeral / demonstrative and measure word are two Chinese tokens: three cars -> 三 辆 车 with
    three-三 and cars-辆 sure, three~辆 possible; a -> 一 is sure. "the" is bare in Chinese (书),
    那 + measure word before a relative clause head (我 看见 的 那 只 猫), 们 on human plurals (孩子 们).
    """
    k = np["k"]
    if k == "pron":
        subj, obj, _poss, zh, _p, _g = PRONOUNS[np["p"]]
        if np.get("fem") and np["p"] == "they":  # they (lily and her sister) -> 她们
            zh = "她们"
        e = _e(subj if role == "subj" else obj)
        return [e], [_z(zh, (e,))]
    if k == "name":
        e = _e(np["n"])
        return [e], [_z(NAMES[np["n"]][0], (e,))]
    if k == "place":
        return _place_np(np)
    if k == "coord":  # anna and lily -> 安娜 和 莉莉
        a_en, a_zh = render_np(np["items"][0], role, tags)
        b_en, b_zh = render_np(np["items"][1], role, tags)
        ea = _e(np.get("conj", "and"))
        tags.add("coordination")
        conj_zh = "和" if ea[0] == "and" else "还是" if np.get("alt") else "或者"  # or: 还是 in a question
        return a_en + [ea] + b_en, a_zh + [_z(conj_zh, (ea,))] + b_zh
    noun = NOUNS[np["n"]]
    d = np.get("d", "the")
    plural = is_plural(np)
    e_n = _e(noun.pl if plural else noun.sg)
    en, zh = [], []
    art = None
    cont = np.get("cont")
    e_mw = e_n
    mw_poss = ()
    mw = CONTAINERS[cont][2] if cont else noun.mw
    rel = np.get("rel")
    if d == "a":
        art = _e("a")
        en.append(art)
        if cont:
            ec = _e(CONTAINERS[cont][0])
            eo = _e("of")
            en += [ec, eo]
            e_mw, mw_poss = ec, (art, eo)
            zh += [_z("一", (art,)), _z(mw, (e_mw,), mw_poss)]
            tags.add("measure_word")
        elif not np.get("drop"):
            zh += [_z("一", (art,)), _z(mw, (e_n,), (art,))]
            tags.add("measure_word")
    elif d in ("num", "howmany"):
        if d == "num":
            en_num = [_e(NUMBERS_EN[np["num"]])]
            zh_num = NUMBERS_ZH[np["num"]]
            tags.add("number")
        else:
            en_num = [_e("how"), _e("many")]
            zh_num = "几"
        en += en_num
        mw_poss = tuple(en_num)
        if cont:
            ec = _e(CONTAINERS[cont][1] if plural else CONTAINERS[cont][0])
            eo = _e("of")
            en += [ec, eo]
            e_mw, mw_poss = ec, mw_poss + (eo,)
        zh += [_z(zh_num, en_num), _z(mw, (e_mw,), mw_poss)]
        tags.add("measure_word")
    elif d in ("this", "that"):
        e = _e(d)
        en.append(e)
        zh += [_z("这" if d == "this" else "那", (e,)), _z(mw, (e_n,), (e,))]
        tags.add("measure_word")
    elif d in ("these", "those"):
        e = _e(d)
        en.append(e)
        zh.append(_z("这些" if d == "these" else "那些", (e,)))
    elif d == "the":
        e = _e("the")
        en.append(e)
        if rel and noun.mw and not plural:
            zh += [_z("那", (), (e,)), _z(mw, (e_n,), (e,))]
            tags.add("measure_word")
        elif rel and plural:
            zh.append(_z("那些", (), (e,)))
    elif d == "poss":
        tags.add("possessive")
        pk, pv = np["poss"][:2]
        if pk == "pron":
            e = _e(PRONOUNS[pv][2])
            en.append(e)
            fem = pv == "they" and np["poss"][2:] == ("f",)  # their (two women) -> 她们
            if not np.get("zh_poss_drop"):  # lost her key -> 丢 了 钥匙 (not 丢 了 她 的 钥匙)
                zh.append(_z("她们" if fem else PRONOUNS[pv][3], (e,)))
                if "kin" not in noun.cls:  # 我 妈妈, 我们 老师 ... kin takes no 的 after a pronoun
                    zh.append(_z("的", (), (e,)))
        else:
            e, es = _e(pv), _e("'s")
            en += [e, es]
            zh += [_z(NAMES[pv][0], (e,)), _z("的", (), (es,))]
    # d == "bare": no determiner
    adj = np.get("adj")
    if adj:
        e = _e(adj)
        en.append(e)
        zh += _adj_zh(adj, e, noun, tags)
    en.append(e_n)
    zh.append(_z(noun.zh, (e_n,)))
    if plural and d == "the" and not rel and "human" in noun.cls:  # the children -> 孩子 们
        zh.append(_z("们", (), (e_n, en[0])))
        tags.add("plural_men")
    if art is not None:
        art[0] = "an" if en[1][0][0] in VOWELS or en[1][0].startswith("hour") else "a"
    if rel:
        ren, rzh = render_rel(rel, noun, tags, plural)
        en += ren
        zh = rzh + zh
    return en, zh


def verb_zh(vkey, obj):
    if vkey == "play":
        return PLAY_ZH[obj["n"]]
    if vkey in VERBS:
        return VERBS[vkey][5]
    if vkey == "go":
        return GO[4]
    if vkey == "come":
        return COME[4]
    return INTRANSITIVE[vkey][4]


def verb_forms(vkey):
    """(base, 3sg, past, -ing, particle)."""
    if vkey in VERBS:
        return VERBS[vkey][:5]
    if vkey == "go":
        return GO[:4] + ("",)
    if vkey == "come":
        return COME[:4] + ("",)
    return INTRANSITIVE[vkey][:4] + (PARTICLE_I.get(vkey, ""),)


def render_place(place, tags):
    """in the library -> 在 图书馆 (moved before the verb by the clause); there -> 在 那里."""
    if place in THERE:
        et = _e(place)
        tags.add("place_front")
        return [et], [_z("在", (), (et,)), _z(THERE[place], (et,))]
    words, prep, zh = PLACES[place]
    ep = _e(prep)
    ew = [_e(w) for w in words]
    tags.add("place_front")
    return [ep] + ew, [_z("在", (ep,)), _z(zh, (ew[-1],))]


def render_rel(rel, head, tags, plural=False):
    """Relative clause: English after the noun, Chinese before it, closed by 的."""
    tags.add("relative_clause")
    e_that = _e("who" if "human" in head.cls else "that")
    base, s3, past, _ing, particle = verb_forms(rel["v"])
    if rel["t"] == "o":  # object relative: the book that you bought -> 你 买 的 那本 书
        sen, szh = render_np(rel["s"], "subj", tags)
        form = past if rel["tense"] == "d" else (s3 if person_of(rel["s"]) == "3s" else base)
        ev = _e(form)
        en = [e_that] + sen + [ev] + ([_e(particle)] if particle else [])
        zh = szh + [_z(verb_zh(rel["v"], None), (ev,), en[len(sen) + 2:])]
        return en, zh + [_z("的", (), (e_that,))]
    # subject relative: the girl who sings in the park -> 在 公园 唱歌 的 那 个 女孩
    ev = _e(past if rel["tense"] == "d" else (base if plural else s3))
    en, zh = [e_that, ev], []
    obj = rel.get("o")
    if obj:
        oen, ozh = render_np(obj, "obj", tags)
        en += oen
    if rel.get("place"):
        pen, pzh = render_place(rel["place"], tags)
        en += pen
        zh += pzh
    zh += _verb_tokens({"v": rel["v"], "tense": rel["tense"], "_rel": True}, obj, ev, None, (), tags)
    if obj and rel["v"] in DRINK_LIKERS and obj["k"] == "noun" and "drink" in NOUNS[obj["n"]].cls:
        zh.append(_z("喝", (), (ev,)))  # the girl who likes tea -> 喜欢 喝 茶 的 女孩
    if obj:
        zh += ozh
    return en, zh + [_z("的", (), (e_that,))]


# --------------------------------------------------------------------------- clauses
def _discourse_subject(c, s_en, s_zh):
    """Subject tokens after the discourse flags of a chain clause (set by helpers.corpus.discourse):
    ``_drop`` drops the Chinese subject (他 去 了 图书馆 ， 看 了 一 本 书), ``_en_drop`` the English one too."""
    return ([] if c.get("_en_drop") else s_en), ([] if c.get("_drop") else s_zh)


def _be(person, tense):
    table = BE_PAST if tense == "d" else BE_PRES
    return table.get(person, "were" if tense == "d" else "are")


def render_clause(c, tags):
    """English tokens (no final punctuation), Chinese tokens of one "act" or copula clause spec (the
    weather and "there is" clauses are ``helpers.corpus.grammar_extra``'s; ``surface.render_clause``
    dispatches every kind)."""
    kind = c["type"]
    if kind == "act":
        return _render_act(c, tags)
    return _render_copula(c, tags)


def _aux_main(c, person, inverted):
    """English auxiliary (or None) and main verb form for tense/negation/inversion."""
    base, s3, past, ing, _ = verb_forms(c["v"])
    tense, neg = c["tense"], c.get("neg")
    if tense == "p":
        if neg or inverted:
            return ("does" if person == "3s" else "do"), base
        return None, (s3 if person == "3s" else base)
    if tense == "d":
        return ("did", base) if (neg or inverted) else (None, past)
    if tense == "f":
        return "will", base
    if tense == "c":
        return "can", base
    return _be(person, "p"), ing  # progressive


SKILLS = {"swim", "sing", "dance", "cook", "speak", "play"}  # can -> 会 (learned ability); else 能 / 可以
EVERY_TIMES = {k for k in TIMES if k.startswith("every_")}  # every day, every week, ... (data/times.tsv)


def modal_zh(c, subj):
    """Chinese modal of "can": 会 for a learned skill, 可以 when asking permission (can i ...?), else 能."""
    if c["v"] in SKILLS:
        return "会"
    if c.get("q") == "yn" and subj["k"] == "pron" and subj["p"] in ("i", "we"):
        return "可以"
    return "能"


def _time_tokens(key, tags):
    words, zhs, _ = TIMES[key]
    t_en = [_e(w) for w in words]
    tags.add("time_front")
    return t_en, [_z(w, [t_en[i] for i in idx]) for w, idx in zhs]


def _render_act(c, tags):
    q = c.get("q")
    v = c["v"]
    tense, neg = c["tense"], c.get("neg", False)
    subj = c["subj"] if q != "who_s" else {"k": "who"}
    obj = c.get("obj")
    person = person_of(subj)
    inverted = q not in (None, "who_s")
    aux, main = _aux_main(c, person, inverted)
    particle = verb_forms(v)[4]
    if q == "who_s" and tense in ("p", "d"):
        aux = None
    # ---- English pieces
    if c.get("_en_drop") and tense == "f" and not neg:  # he will go to the store and buy a shirt
        aux = None
    e_aux = _e(aux) if aux else None
    e_not = _e("not") if neg else None
    e_main = _e(main)
    e_part = _e(particle) if particle else None
    if q == "who_s":
        e_wh = _e("who")
        s_en, s_zh = [e_wh], [_z("谁", (e_wh,))]
    else:
        s_en, s_zh = render_np(subj, "subj", tags)
    s_en, s_zh = _discourse_subject(c, s_en, s_zh)  # a continuing subject is dropped (helpers.corpus.discourse)
    # object / destination
    o_en, o_zh = [], []
    if v in ("go", "come"):
        dest = c.get("dest")
        if dest == "home":
            eh = _e("home")
            o_en, o_zh = [eh], [_z("家", (eh,))]
        elif dest:
            words, _prep, zh = PLACES[dest]
            et = _e("to")
            ew = [_e(w) for w in words]
            o_en, o_zh = [et] + ew, [_z(zh, (ew[-1],))]
    elif obj is not None and q not in ("what", "who_o"):
        o_en, o_zh = render_np(obj, "obj", tags)
    if c.get("io"):  # give my mother a gift -> 给 我 妈妈 一 份 礼物
        i_en, i_zh = render_np(c["io"], "obj", tags)
        o_en, o_zh = i_en + o_en, i_zh + o_zh
    w_en, w_zh = _with_tokens(c, tags)
    d_en, d_zh = [], []
    if c.get("dur"):  # she studied for two hours -> 她 学习 了 两 个 小时 (after the verb)
        e_for = _e("for")
        n = c["dur"]
        d_en, d_zh = render_np({"k": "noun", "n": "hour", "d": "a" if n == 1 else "num", "num": n}, "obj", tags)
        d_en = [e_for] + d_en
        o_zh = o_zh + d_zh
    b_en, b_zh = [], []
    if c.get("by"):
        words, zhs = BY[c["by"]]
        b_en = [_e(w) for w in words]
        b_zh = [_z(w, [b_en[i] for i in idx]) for w, idx in zhs]
    prog = tense == "g"
    p_en, p_zh = [], []
    if c.get("place"):
        p_en, p_zh = render_place(c["place"], tags)
    t_en, t_zh = [], []
    if c.get("time"):
        t_en, t_zh = _time_tokens(c["time"], tags)
    f_en, f_zh = [], []
    if c.get("freq") == "never":  # she never drinks coffee -> 她 从来 不 喝 咖啡
        ef = _e("never")
        f_en, f_zh = [ef], [_z(NEVER_ZH[0], (ef,)), _z(NEVER_ZH[1 if tense == "p" else 2], (ef,))]
        tags.add("negation")
    elif c.get("freq"):
        ef = _e(c["freq"])
        f_en, f_zh = [ef], [_z(FREQ[c["freq"]], (ef,))]
        tags.add("time_front")
    e_early = _e("early") if c.get("early") else None
    # ---- English order
    vg = [e_main] + ([e_part] if e_part else [])
    e_wh = None
    if e_early:
        vg.append(e_early)
    if q is None or q == "who_s":
        adv_en = list(c.get("_adv_en", ()))  # she also often plays ..., she will also buy ...
        en = (s_en + f_en + [e_aux] + adv_en if e_aux else s_en + adv_en + f_en) + ([e_not] if e_not else []) + vg
        en += o_en + d_en + w_en + b_en + p_en + t_en
        if c.get("too"):  # i will go too -> 我 也 会 去
            e_too = _e("too")
            en.append(e_too)
            f_zh = f_zh + [_z("也", (e_too,))]
    else:
        head = []
        if q in ("what", "who_o", "where", "when", "why", "how"):
            e_wh = _e("who" if q == "who_o" else q)
            head = [e_wh]
        elif q == "howmany":
            head, o_zh_h = render_np(obj, "obj", tags)
        en = head + [e_aux] + s_en + vg
        if q == "where":
            en += o_en + b_en + t_en
        elif q == "when":
            en += o_en + b_en + p_en
        elif q == "how":
            en += o_en + p_en + t_en
        elif q in ("what", "who_o", "howmany"):
            en += b_en + p_en + t_en
        else:  # yn, why
            en += o_en + w_en + b_en + p_en + t_en
    # ---- Chinese order: S 还 WH-ADV TIME FREQ NEG MODAL 在 PLACE BY V 了 O 了 吗
    zh = s_zh
    zh += list(c.get("_adv", ()))  # adverbs of the discourse after the subject: ， 他 还 / 也 / 就 / 先 ...
    if q in ("when", "why"):  # 玛丽 为什么 每周 看望 奶奶 ？
        zh.append(_z(WH_ZH[q], (e_wh,)))
    if q == "how":  # time first: 你 周末 怎么 去 电影院 ？
        zh += t_zh
        t_zh = []
        zh.append(_z(WH_ZH[q], (e_wh,)))
    every = neg and tense == "p" and c.get("time") in EVERY_TIMES
    if every:  # scope: does not V every day -> 不是 每天 都 V (not: 每天 不 V)
        zh.append(_z("不是", (e_not,), (e_aux,)))
        tags.add("negation")
    zh += t_zh + f_zh + list(c.get("_adv2", ()))  # after the time: 他 每天 早上 先 吃 面包
    if every:
        zh.append(_z("都", (), tuple(t_en[:1])))
    past_form = e_main if (tense == "d" and aux is None) else e_aux
    if neg and not every:
        aux_poss = (e_aux,) if tense in ("p", "d") else ()
        stative = v in VERBS and "s" in VERBS[v][9]
        if v == "have":
            tags.add("negation")
            zh.append(_z("没有", (e_not, e_main), aux_poss))
            e_main = None
        else:  # a stative past is negated with 不: she did not like it -> 她 不 喜欢
            zh.append(_z("没" if tense == "d" and not stative else "不", (e_not,), aux_poss))
            tags.add("negation")
    if tense == "f" and e_aux is not None and not c.get("_no_hui"):  # a later future clause: ， 然后 买 ...
        zh.append(_z("会", (e_aux,)))
    elif tense == "c":
        zh.append(_z(modal_zh(c, subj), (e_aux,)))
        tags.add("modal")
    elif v == "speak":  # she speaks chinese -> 她 会 说 中文
        zh.append(_z("会", (), (e_aux or e_main,)))
        tags.add("modal")
    after_place = v in INTRANSITIVE and "a" in INTRANSITIVE[v][7]  # 住 在 城里: the place follows the verb
    if prog:  # she is reading (in the library) -> 她 在 (图书馆) 看 书; now, no place -> 现在 正在 看 书
        prog_poss = (e_aux, e_main)
        if p_zh and not after_place:
            p_zh[0] = _z("在", p_zh[0][1], prog_poss)
        else:
            zh.append(_z("正在" if c.get("time") == "now" else "在", (), prog_poss))
        tags.add("progressive")
    zh += w_zh
    if after_place:
        a_zh, p_zh = p_zh, []
    else:
        a_zh = []
    if q == "where":
        if v in ("go", "come"):
            o_zh = [_z("哪里", (e_wh,))]
        elif after_place:  # where do you live ? -> 你 住 在 哪里 ？
            a_zh = [_z("在", (), (e_wh,)), _z("哪里", (e_wh,))]
        else:
            zh += [_z("在", (), (e_wh,)), _z("哪里", (e_wh,))]
    if e_early:  # she gets up early -> 她 很 早 起床; she got up early -> 她 很 早 就 起床 了
        zh += [_z("很", (), (e_early,)), _z("早", (e_early,))]
        if tense == "d":
            zh.append(_z("就", (), (e_early,)))
    zh += p_zh + b_zh
    if e_main is not None:
        v_poss = (e_part,) if e_part else ()
        if v in ("go", "come") and c.get("dest") not in (None, "home") and q != "where":
            v_poss = (o_en[0],)  # to -> 去
        if c.get("_no_hui") and e_aux is not None and tense == "f":
            v_poss += (e_aux,)  # will~买 where a later future clause has no 会
        if c.get("dest") == "home":
            zh.append(_z("回", (e_main,), v_poss))
        else:
            zh += _verb_tokens(c, obj, e_main, e_part, v_poss, tags)
    zh += a_zh
    le_after = _takes_le(c, q) if (tense == "d" and not neg) else ""
    if le_after == "after":
        zh.append(_z("了", (), (past_form,)))
        tags.add("aspect_le")
    if q == "what":
        zh.append(_z("什么", (e_wh,)))
    elif q == "who_o":
        zh.append(_z("谁", (e_wh,)))
    elif q == "howmany":
        zh += o_zh_h
    else:
        zh += o_zh
    if le_after == "final":
        zh.append(_z("了", (), (past_form,)))
        tags.add("aspect_le")
    if q == "yn" and not (obj and obj.get("alt")):
        zh.append(_z("吗", (), (e_aux,)))
        tags.add("yn_question")
    elif q is not None:
        tags.add("wh_question")
    return en, zh


def _specific(obj) -> bool:
    """A specific or counted object (an apple, this book, my pen, tom): the completed action takes V 了 O."""
    if obj is None:
        return False
    if obj["k"] != "noun":
        return True
    return obj.get("d") not in ("bare",) and not (obj.get("d") == "a" and obj.get("drop"))


def _takes_le(c, q):
    """Where perfective 了 goes in a positive past clause: 'after' the verb, 'final', or ''.

    V 了 O for a completed action on a specific or counted object (吃 了 一 个 苹果, 关上 了 门),
    sentence-final 了 for a bare object or an intransitive verb (喝 茶 了, 在 公园 散步 了).
    """
    v = c["v"]
    if c.get("_no_le"):  # the first verb of a serial construction: 他 去 公园 踢 了 足球
        return ""
    if c.get("dur"):  # 学习 了 两 个 小时
        return "after"
    if v in ("teach", "wait_for"):  # 她 去年 教 英语 ; 我 昨天 在 车站 等 妈妈 (an activity over time, no 了)
        return ""
    if v == "come":  # 他 来 学校 了 ; 他 回 家 了
        return "final" if c.get("dest") else ""
    if v in VERBS:
        if "s" in VERBS[v][9]:
            return ""
        specific = q in ("what", "who_o", "howmany") or _specific(c.get("obj"))
        return "after" if (specific or c.get("_mid")) else "final"  # in a chain: 买 了 肉 ， 但是 ...
    if v == "go":
        if c.get("dest") == "home" or (q == "yn" and c.get("dest")):  # 他 去 游泳池 了 吗 ？
            return "final"
        return "after" if (c.get("dest") or q == "where") else ""
    if q == "where" or "l" not in INTRANSITIVE[v][7]:
        return ""
    return "final"


def _with_tokens(c, tags):
    """with my brother -> 和 我 哥哥 一起 (before the verb); together (plural subject) -> 一起."""
    if c.get("with"):
        ew = _e("with")
        w_en, w_zh = render_np(c["with"], "obj", tags)
        tags.add("coordination")
        return [ew] + w_en, [_z("和", (ew,))] + w_zh + [_z("一起", (), (ew,))]
    if c.get("together"):
        et = _e("together")
        return [et], [_z("一起", (et,))]
    return [], []


ELDERLY = ("grandmother", "grandfather")
DRINK_LIKERS = ("like", "love")


def _verb_tokens(c, obj, e_main, e_part, v_poss, tags):
    """The Chinese verb of a clause, with the choices that depend on the object and the tense.

    visit -> 看望 only for the elderly (grandparents), else 去 看; like + a drink -> 喜欢 喝 (喜欢 喝 茶);
    meet -> 见 for a habitual or planned meeting (present / future), 遇到 for a past, chance one;
    get up -> 起床, sure to both English words.
    """
    v = c["v"]
    if v == "visit" and (c.get("q") == "who_o" or not (obj and obj["k"] == "noun" and obj["n"] in ELDERLY)):
        return [_z("去", (e_main,)), _z("看", (e_main,))]
    if v == "meet" and c["tense"] in ("p", "f"):
        return [_z(MEET_PF, (e_main,))]
    if v in PARTICLE_I:
        return [_z(verb_zh(v, obj), (e_main, e_part))]
    out = [_z(verb_zh(v, obj), (e_main,), v_poss)]
    first = obj["items"][0] if obj and obj["k"] == "coord" else obj
    if v in DRINK_LIKERS and c.get("_rel") is None and first and first["k"] == "noun" \
            and "drink" in NOUNS[first["n"]].cls:
        out.append(_z("喝", (), (e_main,)))
    return out


def _render_copula(c, tags):
    """cop_n: S is a N; cop_adj: S is ADJ; loc: S is PREP N (location)."""
    kind, q, neg, tense = c["type"], c.get("q"), c.get("neg", False), c.get("tense", "p")
    subj = c["subj"]
    s_en, s_zh = render_np(subj, "subj", tags)
    s_en, s_zh = _discourse_subject(c, s_en, s_zh)
    person = person_of(subj)
    e_be = _e(_be(person, tense))
    e_not = _e("not") if neg else None
    t_en, t_zh = [], []
    if c.get("time"):
        t_en, t_zh = _time_tokens(c["time"], tags)
    zh_neg = [_z("不", (e_not,))] if neg else []
    if neg:
        tags.add("negation")
    e_wh = None
    if kind == "cop_n":
        noun = NOUNS[c["noun"]]
        plural = person in ("1p", "3p") or (person == "2" and c.get("pl"))
        pred_en, pred_zh = [], []
        e_n = _e(noun.pl if plural else noun.sg)
        if not plural:
            art = _e("an" if noun.sg[0] in VOWELS else "a")
            pred_en.append(art)
            if not neg and q is None:  # i am a student -> 我 是 一 名 学生
                pred_zh += [_z("一", (art,)), _z("名", (e_n,), (art,))]
                tags.add("measure_word")
        pred_en.append(e_n)
        pred_zh = [_z("是", (e_be,))] + pred_zh + [_z(noun.zh, (e_n,))]
    elif kind == "cop_adj":
        adj = c["adj"]
        stem, akind, _ = ADJECTIVES[adj]
        if adj == "delicious" and subj["k"] == "noun" and "drink" in NOUNS[subj["n"]].cls:
            stem = "好喝"
        e_a = _e(adj)
        pred_en = ([_e("very")] if c.get("very") else []) + [e_a]
        if akind == "color":
            pred_zh = [_z("是", (e_be,)), _z(stem, (e_a,)), _z("的", (), (e_a,))]
            tags.add("adjective_de")
        elif c.get("very"):
            pred_zh = [_z("很", (pred_en[0],)), _z(stem, (e_a,))]
        elif neg or q == "yn":
            pred_zh = [_z(stem, (e_a,))]
        else:
            pred_zh = [_z("很", (), (e_be,)), _z(stem, (e_a,))]
    else:  # loc
        if c.get("place"):
            words, prep, zh = PLACES[c["place"]]
            ep = _e(prep)
            ew = [_e(w) for w in words]
            pred_en = [ep] + ew
            pred_zh = [_z("在", (e_be, ep)), _z(zh, (ew[-1],))]
        elif q == "where":
            pred_en, pred_zh = [], [_z("在", (e_be,))]
        else:
            lwords, lzh = LOCATIVES[c["loc"]]
            el = [_e(w) for w in lwords]
            l_en, l_zh = render_np(c["land"], "obj", tags)
            pred_en = el + l_en
            pred_zh = [_z("在", (e_be,))] + l_zh + [_z(lzh, el)]
            tags.add("place_front")
    if q == "where":
        e_wh = _e("where")
        en = [e_wh, e_be] + s_en + t_en
        zh = s_zh + t_zh + pred_zh + [_z("哪里", (e_wh,))]
        tags.add("wh_question")
        return en, zh
    if q == "yn":
        en = [e_be] + s_en + pred_en + t_en
        zh = s_zh + t_zh + pred_zh + [_z("吗", (), (e_be,))]
        tags.add("yn_question")
        return en, zh
    en = s_en + [e_be] + list(c.get("_adv_en", ())) + ([e_not] if neg else []) + pred_en + t_en
    if neg and pred_zh[0][0] == "很":
        pred_zh = pred_zh[1:]
    zh = s_zh + list(c.get("_adv", ())) + t_zh + zh_neg + pred_zh
    return en, zh


# --------------------------------------------------------------------------- sentences
BARE_ZH = frozenset(n.zh for n in NOUNS.values())


def le_after_bare_object(zh):
    """她 吃 了 肉 (sentence end) sounds unfinished: a bare object that ends the sentence takes final 了 (吃 肉 了)."""
    if len(zh) >= 3 and zh[-2][0] == "了" and zh[-1][0] in BARE_ZH:
        return zh[:-2] + [zh[-1], zh[-2]]
    return zh


def _pron(p):
    return {"k": "pron", "p": p}


# The nine sentences of DESIGN.md §4, as specs; tests check that they render exactly as shown there.
DESIGN_EXAMPLES = [
    {"type": "cop_n", "subj": _pron("i"), "noun": "student"},
    {"type": "act", "v": "eat", "tense": "d", "subj": {"k": "name", "n": "tom"},
     "obj": {"k": "noun", "n": "apple", "d": "a"}, "time": "yesterday"},
    {"type": "act", "v": "read", "tense": "p", "subj": _pron("she"), "obj": {"k": "noun", "n": "book", "d": "bare"},
     "place": "library", "time": "every_day"},
    {"type": "cop_adj", "adj": "black", "subj": {"k": "noun", "n": "cat", "d": "the",
                                                 "rel": {"t": "o", "s": _pron("i"), "v": "see", "tense": "d"}}},
    {"type": "act", "v": "have", "tense": "p", "subj": {"k": "noun", "n": "brother", "d": "poss", "poss": ("pron", "i")},
     "obj": {"k": "noun", "n": "car", "d": "num", "num": 3, "adj": "red"}},
    {"type": "act", "v": "like", "tense": "p", "q": "yn", "subj": _pron("you"), "obj": {"k": "noun", "n": "tea", "d": "bare"}},
    {"type": "act", "v": "buy", "tense": "d", "q": "where", "subj": _pron("you"),
     "obj": {"k": "noun", "n": "book", "d": "this"}},
    {"type": "act", "v": "go", "tense": "d", "neg": True, "subj": _pron("we"), "dest": "school", "time": "today"},
    {"chain": [
        {"type": "act", "v": "like", "tense": "p", "subj": _pron("i"), "obj": {"k": "noun", "n": "tea", "d": "bare"}},
        "but",
        {"type": "act", "v": "like", "tense": "p", "subj": _pron("he"), "obj": {"k": "noun", "n": "coffee", "d": "bare"}},
    ]},
]
