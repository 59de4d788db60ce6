"""Personal questions and answers (syllabus: 个人信息): what is your name ? my name is tom . -> 你 叫 什么 名字 ？ 我 叫 汤姆 。

The subject varies (you, he, tom, your mother, your friend: ``subjects``) and the answer refers back with
the right pronoun (what is your mother 's name ? her name is anna . -> 你 妈妈 叫 什么 名字 ？ 她 叫 安娜 。).
Countries and cities come from ``data/origins.tsv``, favourites from ``data/favorites.tsv``, jobs from
the lexicon's PROFESSIONS. Each pattern gives a question, an answer, or both in one item; the equally
good phrasings go to the refs. Patterns (``PATTERNS``):

* name: my name is tom -> 我 叫 汤姆 (ref 我 的 名字 是 汤姆); what is your name ? -> 你 叫 什么 名字 ？
* age: how old are you ? i am ten years old . -> 你 几 岁 ？ 我 十 岁 。 (多 大 for anyone over twelve)
* from: where are you from ? i am from china . -> 你 来自 哪里 ？ 我 来自 中国 。 (refs 是 哪里 人 / 是 中国 人)
* job: what does your father do ? he is a doctor . -> 你 爸爸 是 做 什么 的 ？ 他 是 一 名 医生 。
* live: where do you live ? i live in beijing . -> 你 住 在 哪里 ？ 我 住 在 北京 。
* favorite: what is your favorite color ? my favorite color is blue . -> 你 最 喜欢 的 颜色 是 什么 ？ 我 最 喜欢 的 颜色 是 蓝色 。
* siblings: do you have any brothers or sisters ? yes , i have a sister . -> 你 有 兄弟姐妹 吗 ？ 有 ， 我 有 一 个 姐姐 。
* family: how many people are there in your family ? -> 你 家 有 几 口 人 ？
* grade: what grade are you in ? i am in grade five . -> 你 上 几 年级 ？ 我 上 五 年级 。
* how: how is your mother ? she is fine . -> 你 妈妈 好 吗 ？ 她 很 好 。
"""

from __future__ import annotations

from helpers.corpus.families.numerals import counted, number
from helpers.corpus.families.subjects import (
    BE,
    HAVE,
    gender,
    person,
    pron_tokens,
    pronoun,
    sample_subject,
    subject,
)
from helpers.corpus.lexicon import NAMES, PROFESSIONS, PRONOUNS
from helpers.corpus.syllabus import read_tsv
from helpers.corpus.tokens import en, ens, finish, zh

PATTERNS = ("name", "age", "from", "job", "live", "favorite", "favorite", "siblings", "family", "grade", "how")
ADULTS = ("mother", "father", "uncle", "aunt", "neighbor")
OLD = ("grandmother", "grandfather")
KIDS_REL = ("brother", "sister", "friend", "classmate")
FEMALE = ("mother", "aunt", "grandmother", "sister")
# phenomenon tags of an answer (helpers.corpus.PHENOMENA_ZH); a question adds wh_question or yn_question
TAGS = {"age": ("number",), "job": ("measure_word",), "siblings": ("measure_word",),
        "family": ("number", "measure_word"), "grade": ("number",)}


def _plain(z):
    return [zh(t[0]) for t in z]


def _q_subject(rng, rels=None):
    """A subject to ask about: you, he, she, a name, or your / his / her relative (not "my")."""
    s = sample_subject(rng, prons=("you", "he", "she"))
    while s["k"] == "rel" and (s["o"] == "i" or (rels and s["n"] not in rels)):
        s = sample_subject(rng, prons=("you", "he", "she"))
    return s


def sample(rng) -> dict:
    pat = rng.choice(PATTERNS)
    form = rng.choice(("q", "a", "qa", "qa"))
    spec = {"pat": pat, "form": form}
    if pat == "age":
        s = _q_subject(rng)
        who = s["n"] if s["k"] == "rel" else ""
        spec.update(subj=s, n=rng.randint(60, 90) if who in OLD else rng.randint(25, 60) if who in ADULTS
                    else rng.randint(2, 15), years=rng.random() < 0.5)
    elif pat in ("job",):
        spec.update(subj=_q_subject(rng, ADULTS + ("friend", "neighbor")), job=rng.choice(list(PROFESSIONS)))
        if spec["job"] == "student":
            spec["job"] = "teacher"
    elif pat in ("grade", "siblings"):
        spec["subj"] = _q_subject(rng, KIDS_REL)
    else:
        spec["subj"] = _q_subject(rng)
    while pat == "name" and spec["subj"]["k"] == "name":  # nobody asks what tom's name is
        spec["subj"] = _q_subject(rng)
    g = gender(spec["subj"])
    if pat == "name":
        spec["name"] = rng.choice([n for n, (_, ng) in NAMES.items() if not g or ng == g])
    elif pat in ("from", "live"):
        rows = read_tsv("origins")
        spec["place"] = rng.choice([i for i, r in enumerate(rows) if pat == "from" or r["kind"] == "city"])
    elif pat == "favorite":
        spec["fav"] = rng.randrange(len(read_tsv("favorites")))
        if read_tsv("favorites")[spec["fav"]]["cat"] == "subject":  # school subjects: a pupil's favourite
            spec["subj"] = _q_subject(rng, KIDS_REL)
    elif pat == "siblings":
        spec["sib"] = rng.choice(((1, 0), (0, 1), (2, 0), (0, 2), (1, 1), (0, 0)))
        spec["np"] = [c for n, noun in zip(spec["sib"], ("brother", "sister")) if n > 1 for c in counted(n, noun)]
    elif pat == "family":
        spec["n"] = rng.randint(3, 6)
        spec["np"] = counted(spec["n"], "person")
    elif pat == "grade":
        spec["n"] = rng.randint(1, 6)
    elif pat == "how":
        noun = rng.choice(ADULTS[:4] + OLD + KIDS_REL[:2])  # how is your mother ?
        spec["subj"] = {"k": "rel", "o": "you", "n": noun, "g": "f" if noun in FEMALE else "m"}
        spec["very"] = rng.random() < 0.5
    return spec


def render(spec):
    return globals()["_" + spec["pat"]](spec)


def _answerer(s):
    """The answer's subject: you -> i, anyone else -> he / she."""
    return {"k": "pron", "p": pronoun(s)}


def _be(s):
    return en(BE[person(s)])


def _compose(spec, q, a):
    """One item from a question and an answer, each (English, Chinese, [alternative Chinese token lists])."""
    (eq, zq, altq), (ea, za, alta) = q, a
    qtag = "yn_question" if spec["pat"] in ("siblings", "how") else "wh_question"
    atags = TAGS.get(spec["pat"], ())
    if spec["form"] == "q":
        return finish(eq, zq, question=True, alternatives=altq, tags=(qtag,))
    if spec["form"] == "a":
        return finish(ea, za, alternatives=alta, tags=atags)
    e_qm = en("?")
    zq = [(w, sure, poss + (e_qm,)) if w == "吗" else (w, sure, poss) for w, sure, poss in zq]  # 吗 ~ ?
    zq = zq + [zh("？", (e_qm,))]
    qs = [_plain(zq)] + [alt + [zh("？")] for alt in altq]
    alts = [x + y for x in qs for y in [_plain(za)] + alta][1:]
    return finish(eq + [e_qm] + ea, zq + za, alternatives=alts, tags=(qtag,) + atags)


def _name(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_what, e_is = ens("what is")
    e_name = en("name")
    if s["k"] == "pron":  # what is your name -> 你 叫 什么 名字
        es = [en(PRONOUNS[s["p"]][2])]
        zs = [zh(PRONOUNS[s["p"]][3], es)]
        eq = [e_what, e_is] + es + [e_name]
    else:
        eq = [e_what, e_is] + es + [en("'s"), e_name]
    zq = zs + [zh("叫", (), (e_is, e_name)), zh("什么", (e_what,)), zh("名字", (e_name,))]
    altq = [_plain(zs) + [zh("的"), zh("名字"), zh("是"), zh("什么")]]
    p = pronoun(s)
    e_p, e_n2, e_is2, e_x = en(PRONOUNS[p][2]), en("name"), en("is"), en(spec["name"])
    za = [zh(PRONOUNS[p][3], (e_p,)), zh("叫", (e_n2,), (e_is2,)), zh(NAMES[spec["name"]][0], (e_x,))]
    alta = [[zh(PRONOUNS[p][3]), zh("的"), zh("名字"), zh("是"), zh(za[2][0])]]
    return _compose(spec, (eq, zq, altq), ([e_p, e_n2, e_is2, e_x], za, alta))


def _age(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_how, e_old = ens("how old")
    eq = [e_how, e_old, _be(s)] + es
    if spec["n"] <= 12:
        zq = zs + [zh("几", (e_how,)), zh("岁", (e_old,))]
        altq = [_plain(zs) + [zh("多"), zh("大")]]
    else:
        zq = zs + [zh("多", (e_how,)), zh("大", (e_old,))]
        altq = [_plain(zs) + [zh("多"), zh("大"), zh("了")]]
    a = _answerer(s)
    e_p, z_p = pron_tokens(a["p"])
    e_n, z_n = number(spec["n"], mw=True)
    ea = [e_p, _be(a)] + e_n
    if spec["years"]:
        e_y, e_o = ens("years old" if spec["n"] > 1 else "year old")
        ea += [e_y, e_o]
        sui = zh("岁", (e_y, e_o))
    else:
        sui = zh("岁", (), tuple(e_n))
    return _compose(spec, (eq, zq, altq), (ea, [z_p] + z_n + [sui], []))


def _from(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_where, e_from = en("where"), en("from")
    eq = [e_where, _be(s)] + es + [e_from]
    zq = zs + [zh("来自", (e_from,)), zh("哪里", (e_where,))]
    altq = [_plain(zs) + [zh("是"), zh("哪里"), zh("人")]]
    a = _answerer(s)
    e_p, z_p = pron_tokens(a["p"])
    row = read_tsv("origins")[spec["place"]]
    e_f2 = en("from")
    e_pl = [en(w) for w in row["en"].split()]
    za = [z_p, zh("来自", (e_f2,)), zh(row["zh"], tuple(e_pl))]
    alta = [[zh(z_p[0]), zh("是"), zh(row["zh"]), zh("人")]]
    return _compose(spec, (eq, zq, altq), ([e_p, _be(a), e_f2] + e_pl, za, alta))


def _job(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_what, e_do, e_do2 = en("what"), en("does" if person(s) == "3s" else "do"), en("do")
    eq = [e_what, e_do] + es + [e_do2]
    zq = zs + [zh("是", (), (e_do,)), zh("做", (e_do2,)), zh("什么", (e_what,)), zh("的", (), (e_what,))]
    altq = [_plain(zs) + [zh("做"), zh("什么"), zh("工作")]]
    a = _answerer(s)
    e_p, z_p = pron_tokens(a["p"])
    job = PROFESSIONS[spec["job"]]
    e_a, e_j = en("an" if job.sg[0] in "aeiou" else "a"), en(job.sg)
    e_be = _be(a)
    za = [z_p, zh("是", (e_be,)), zh("一", (e_a,)), zh("名", (e_j,), (e_a,)), zh(job.zh, (e_j,))]
    alta = [[zh(z_p[0]), zh("是"), zh(job.zh)]]
    return _compose(spec, (eq, zq, altq), ([e_p, e_be, e_a, e_j], za, alta))


def _live(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_where, e_do, e_live = en("where"), en("does" if person(s) == "3s" else "do"), en("live")
    zq = zs + [zh("住", (e_live,)), zh("在", (), (e_where,)), zh("哪里", (e_where,))]
    a = _answerer(s)
    e_p, z_p = pron_tokens(a["p"])
    e_l2, e_in = en("lives" if PRONOUNS[a["p"]][4] == "3s" else "live"), en("in")
    row = read_tsv("origins")[spec["place"]]
    e_pl = [en(w) for w in row["en"].split()]
    za = [z_p, zh("住", (e_l2,)), zh("在", (e_in,)), zh(row["zh"], tuple(e_pl))]
    return _compose(spec, ([e_where, e_do] + es + [e_live], zq, []), ([e_p, e_l2, e_in] + e_pl, za, []))


def _owner(s):
    """(English, Chinese) of an owner before "favorite": your -> 你, your mother 's -> 你 妈妈, tom 's -> 汤姆."""
    if s["k"] == "pron":
        e = en(PRONOUNS[s["p"]][2])
        return [e], [zh(PRONOUNS[s["p"]][3], (e,))]
    es, zs = subject(s)
    return es + [en("'s")], zs


def _favorite(spec):
    s = spec["subj"]
    row = read_tsv("favorites")[spec["fav"]]
    e_o, z_o = _owner(s)
    e_what, e_is, e_fav, e_cat = en("what"), en("is"), en("favorite"), en(row["cat"])
    zfav = [zh("最", (e_fav,)), zh("喜欢", (e_fav,)), zh("的", (), (e_fav,))]
    zq = z_o + zfav + [zh(row["cat_zh"], (e_cat,)), zh("是", (e_is,)), zh("什么", (e_what,))]
    verb = [zh(row["verb"])] if row["verb"] else []
    altq = [_plain(z_o) + [zh("最"), zh("喜欢")] + (verb + [zh("什么")] if verb else [zh("什么"), zh(row["cat_zh"])])]
    e_p, z_p = _owner(_answerer(s))
    e_f2, e_c2, e_is2 = en("favorite"), en(row["cat"]), en("is")
    e_x = [en(w) for w in row["en"].split()]
    e_thing = [e for e in e_x if e[0] != "the"]
    za = z_p + [zh("最", (e_f2,)), zh("喜欢", (e_f2,)), zh("的", (), (e_f2,)), zh(row["cat_zh"], (e_c2,)),
                zh("是", (e_is2,)), zh(row["zh"], tuple(e_thing))]
    alta = [_plain(z_p) + [zh("最"), zh("喜欢")] + verb + [zh(row["zh"])]]
    return _compose(spec, ([e_what, e_is] + e_o + [e_fav, e_cat], zq, altq),
                    (e_p + [e_f2, e_c2, e_is2] + e_x, za, alta))


def _siblings(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_do = en("does" if person(s) == "3s" else "do")
    e_have, e_any, e_b, e_or, e_s = ens("have any brothers or sisters")
    zq = zs + [zh("有", (e_have,)), zh("兄弟姐妹", (e_any, e_b, e_or, e_s)), zh("吗", (), (e_do,))]
    a = _answerer(s)
    e_p, z_p = pron_tokens(a["p"])
    nb, ns = spec["sib"]
    if not nb and not ns:  # no , i am an only child . -> 没有 ， 我 是 独生子女 。
        e_no, e_c, e_be, e_an, e_only, e_child = en("no"), en(","), _be(a), en("an"), en("only"), en("child")
        za = [zh("没有", (e_no,)), zh("，", (e_c,)), z_p, zh("是", (e_be,)), zh("独生子女", (e_only, e_child), (e_an,))]
        return _compose(spec, ([e_do] + es + [e_have, e_any, e_b, e_or, e_s], zq, []),
                        ([e_no, e_c, e_p, e_be, e_an, e_only, e_child], za, []))
    e_yes, e_c, e_has = en("yes"), en(","), en(HAVE.get(PRONOUNS[a["p"]][4], "have"))
    ea = [e_yes, e_c, e_p, e_has]
    za = [zh("有", (e_yes,)), zh("，", (e_c,)), z_p, zh("有", (e_has,))]
    younger = list(za)
    for k, (n, sg, pl, older, young) in enumerate(((nb, "brother", "brothers", "哥哥", "弟弟"),
                                                   (ns, "sister", "sisters", "姐姐", "妹妹"))):
        if not n:
            continue
        if k and nb:
            e_and = en("and")
            ea.append(e_and)
            za.append(zh("和", (e_and,)))
            younger.append(zh("和"))
        e_n, z_n = number(n, mw=True) if n > 1 else ([en("a")], None)
        if z_n is None:
            z_n = [zh("一", tuple(e_n))]
        e_w = en(pl if n > 1 else sg)
        ea += e_n + [e_w]
        za += z_n + [zh("个", (e_w,), tuple(e_n)), zh(older, (e_w,))]
        younger += _plain(z_n) + [zh("个"), zh(young)]
    return _compose(spec, ([e_do] + es + [e_have, e_any, e_b, e_or, e_s], zq, []), (ea, za, [_plain(younger)]))


def _family(spec):
    s = spec["subj"]
    e_o, z_o = _owner(s)
    e_how, e_many, e_people, e_are, e_there, e_in, e_fam = ens("how many people are there in family")
    e_o = [e for e in e_o]
    zjia = zh("家", (e_fam,), (e_in,))
    zq = z_o + [zjia, zh("有", (e_there,), (e_are,)), zh("几", (e_how, e_many)),
                zh("口", (e_people,), (e_how, e_many)), zh("人", (e_people,))]
    eq = [e_how, e_many, e_people, e_are, e_there, e_in] + e_o + [e_fam]
    e_p, z_p = _owner(_answerer(s))
    e_t2, e_a2 = ens("there are")
    e_n, z_n = number(spec["n"], mw=True)
    e_pe2, e_in2, e_f2 = ens("people in family")
    za = z_p + [zh("家", (e_f2,), (e_in2,)), zh("有", (e_t2,), (e_a2,))] + z_n + [zh("口", (e_pe2,), tuple(e_n)),
                                                                                zh("人", (e_pe2,))]
    alta = [[zh("我们")] + _plain(za[1:])] if z_p[0][0] == "我" else []
    return _compose(spec, (eq, zq, []), ([e_t2, e_a2] + e_n + [e_pe2, e_in2] + e_p + [e_f2], za, alta))


def _grade(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_what, e_grade = ens("what grade")
    e_be, e_in = _be(s), en("in")
    zq = zs + [zh("上", (), (e_be, e_in)), zh("几", (e_what,)), zh("年级", (e_grade,))]
    a = _answerer(s)
    e_p, z_p = pron_tokens(a["p"])
    e_be2, e_in2, e_g2 = _be(a), en("in"), en("grade")
    e_n, z_n = number(spec["n"])
    za = [z_p, zh("上", (), (e_be2, e_in2))] + z_n + [zh("年级", (e_g2,))]
    alta = [[zh(z_p[0]), zh("读")] + _plain(z_n) + [zh("年级")]]
    return _compose(spec, ([e_what, e_grade, e_be] + es + [e_in], zq, []),
                    ([e_p, e_be2, e_in2, e_g2] + e_n, za, alta))


def _how(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_how, e_be = en("how"), _be(s)
    zq = zs + [zh("好", (e_how,)), zh("吗", (), (e_how,))]
    a = _answerer(s)
    e_p, z_p = pron_tokens(a["p"])
    e_be2 = _be(a)
    if spec["very"]:
        e_v, e_w = ens("very well")
        ea, za = [e_p, e_be2, e_v, e_w], [z_p, zh("很", (e_v,)), zh("好", (e_w,))]
    else:
        e_f = en("fine")
        ea, za = [e_p, e_be2, e_f], [z_p, zh("很", (), (e_be2,)), zh("好", (e_f,))]
    e_c, e_t, e_y = ens(", thank you")
    ea += [e_c, e_t, e_y]
    za += [zh("，", (e_c,)), zh("谢谢", (e_t, e_y))]
    return _compose(spec, ([e_how, e_be] + es, zq, []), (ea, za, []))
