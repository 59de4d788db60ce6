"""Numbers 1-100, ordinals and measure words (syllabus: 数词、序数词、量词): i have twelve books -> 我 有 十二 本 书.

Token form (see ``numerals``): 21-99 are two English tokens ("twenty one") and two Chinese tokens
(二十 一, twenty-二十, one-一); ordinals 1-20 only, one token: "third" -> 第三; 两 replaces a bare 2
before a measure word (两 本 书, but 二十 二 本 书). Patterns (``PATTERNS``):

* have: S have N nouns -> S 有 N 量词 noun (the measure word sure to the noun, possible to the numeral)
* there: there are N nouns in our class -> 我们 班 有 N 名 学生 (the place moves to the front)
* how_many: how many books do you have ? i have twelve books . -> 你 有 几 本 书 ？ 我 有 十二 本 书 。
* math: three plus five is eight -> 三 加 五 等于 八
* row / floor / day / lesson: ordinals: he sits in the third row -> 他 坐 在 第三 排; we went to the zoo on the
  second day -> 我们 第二 天 去 了 动物园 (the time moves before the verb)
"""

from __future__ import annotations

from helpers.corpus.families.numerals import counted, number, ordinal
from helpers.corpus.families.subjects import HAVE, person, pron_tokens, pronoun, sample_subject, subject
from helpers.corpus.lexicon import ANIMALS, NOUNS, PLACES, PRONOUNS, THINGS
from helpers.corpus.syllabus import read_tsv
from helpers.corpus.tokens import en, ens, finish, zh

HAVE_NOUNS = tuple(k for k, n in {**THINGS, **ANIMALS}.items() if n.mw and ("buyable" in n.cls or "pet" in n.cls)
                   and k not in ("bed", "house", "table", "desk", "computer", "car", "phone"))
# things a person may own many of (up to 100); of anything else one owns 2-10 (no "seventy one beds")
MANY = ("book", "pen", "pencil", "photo", "toy", "notebook", "apple", "cookie", "ball", "flower", "magazine",
        "novel", "map", "ticket", "orange", "banana", "pear")
# there are N nouns in / on PLACE: (English place tokens, Chinese place tokens with the English index they
# are sure to (None: a function word), nouns that are there)
THERE = {
    "class": (("in", "our", "class"), (("我们", 1), ("班", 2)), ("student", "boy", "girl"), 50),
    "school": (("in", "our", "school"), (("我们", 1), ("学校", 2)), ("teacher", "student"), 100),
    "park": (("in", "the", "park"), (("公园", 2), ("里", 0)), ("tree", "bird", "child"), 100),
    "desk": (("on", "the", "desk"), (("书桌", 2), ("上", 0)), ("book", "pen", "apple", "pencil", "cup"), 20),
    "box": (("in", "the", "box"), (("箱子", 2), ("里", 0)), ("toy", "ball", "pen", "egg", "kite"), 30),
    "zoo": (("in", "the", "zoo"), (("动物园", 2), ("里", 0)), ("panda", "monkey", "tiger", "elephant", "bird"), 30),
    "farm": (("on", "the", "farm"), (("农场", 2), ("上", 0)), ("cow", "pig", "horse", "duck", "sheep"), 100),
    "library": (("in", "the", "library"), (("图书馆", 2), ("里", 0)), ("book", "computer", "table"), 60),
}
OPS = {"plus": "加", "minus": "减", "times": "乘以"}
TRIP_PLACES = ("zoo", "museum", "beach", "park", "farm", "city", "library", "cinema")
PATTERNS = ("have", "there", "how_many", "math", "row", "floor", "day", "lesson")


def _noun_np(key, n):
    """(English tokens, Chinese tokens) of "twelve books" -> 十二 本 书."""
    noun = NOUNS[key]
    e_num, z_num = number(n, mw=True)
    e_n = en(noun.sg if n == 1 else noun.pl)
    return e_num + [e_n], z_num + [zh(noun.mw, (e_n,), tuple(e_num)), zh(noun.zh, (e_n,))]


def sample(rng) -> dict:
    pat = rng.choice(PATTERNS)
    spec = {"pat": pat, "subj": sample_subject(rng, prons=("i", "you", "he", "she", "we", "they"))}
    if pat == "how_many":  # nobody asks how many books i have
        spec["subj"] = sample_subject(rng, prons=("you", "he", "she", "they"), owners=("you", "he", "she"))
    if pat in ("have", "how_many"):
        noun = rng.choice(HAVE_NOUNS)
        spec.update(noun=noun, n=rng.randint(2, 100 if noun in MANY else 10), answer=rng.random() < 0.5)
    elif pat == "there":
        place = rng.choice(list(THERE))
        spec.update(place=place, noun=rng.choice(THERE[place][2]), n=rng.randint(2, THERE[place][3]))
    if "noun" in spec:
        spec["np"] = counted(spec["n"], spec["noun"])
    if pat == "math":
        op = rng.choice(list(OPS))
        a, b = rng.randint(1, 50), rng.randint(1, 50)
        if op == "times":
            a, b = rng.randint(2, 10), rng.randint(2, 10)
        elif op == "minus":
            a, b = max(a, b, 2), min(a, b)
        ok = 0 < {"plus": a + b, "minus": a - b, "times": a * b}[op] <= 100
        spec.update(op=op, a=a, b=b if ok else 1, q=rng.random() < 0.4)
    elif pat == "day":
        spec.update(n=rng.randint(1, 7), place=rng.choice(TRIP_PLACES))
    elif pat in ("row", "floor", "lesson"):
        spec.update(n=rng.randint(1, {"row": 10, "floor": 20, "lesson": 8}[pat]))
        if pat == "lesson":
            spec["subject"] = rng.randrange(len(_subjects()))
    return spec


def _subjects():
    return tuple(r for r in read_tsv("favorites") if r["cat"] == "subject")


def _verb(s, base, third):
    return third if person(s) == "3s" else base


def render(spec):
    return globals()["_" + spec["pat"]](spec)


def _have(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_have = en(HAVE.get(person(s), "have"))
    e_np, z_np = _noun_np(spec["noun"], spec["n"])
    return finish(es + [e_have] + e_np, zs + [zh("有", (e_have,))] + z_np, tags=("number", "measure_word"))


def _there(spec):
    words, zplace, _, _ = THERE[spec["place"]]
    e_there, e_are = ens("there are")
    e_place = [en(w) for w in words]
    z_place = [zh(w, (e_place[i],)) for w, i in zplace]
    e_np, z_np = _noun_np(spec["noun"], spec["n"])
    z = z_place + [zh("有", (e_there,), (e_are,))] + z_np
    alts = []
    if spec["noun"] == "student":  # 名 or 个 for students
        alts = [[zh(t[0]) for t in z[:-2]] + [zh("个"), zh("学生")]]
    return finish([e_there, e_are] + e_np + e_place, z, tags=("number", "measure_word", "place_front"),
                  alternatives=alts)


def _how_many(spec):
    s = spec["subj"]
    noun = NOUNS[spec["noun"]]
    e_how, e_many, e_n = en("how"), en("many"), en(noun.pl)
    e_do = en("does" if person(s) == "3s" else "do")
    es, zs = subject(s)
    e_have = en("have")
    e_q = [e_how, e_many, e_n, e_do] + es + [e_have]
    z_q = zs + [zh("有", (e_have,)), zh("几", (e_how, e_many)), zh(noun.mw, (e_n,), (e_how, e_many)),
                zh(noun.zh, (e_n,))]
    alt = [zh(t[0]) for t in z_q[:-3]] + [zh("多少"), zh(noun.mw), zh(noun.zh)]
    if not spec.get("answer"):
        return finish(e_q, z_q, question=True, tags=("number", "measure_word", "wh_question"), alternatives=[alt])
    # how many books do you have ? i have twelve books . -> 你 有 几 本 书 ？ 我 有 十二 本 书 。
    e_qm = en("?")
    e_p, z_p = pron_tokens(pronoun(s))
    e_has = en(HAVE.get(PRONOUNS[pronoun(s)][4], "have"))
    e_np, z_np = _noun_np(spec["noun"], spec["n"])
    z_a = [z_p, zh("有", (e_has,))] + z_np
    return finish(e_q + [e_qm, e_p, e_has] + e_np, z_q + [zh("？", (e_qm,))] + z_a,
                  tags=("number", "measure_word", "wh_question"),
                  alternatives=[alt + [zh("？")] + [zh(t[0]) for t in z_a]])


def _math(spec):
    e_a, z_a = number(spec["a"])
    e_b, z_b = number(spec["b"])
    e_op = en(spec["op"])
    value = {"plus": spec["a"] + spec["b"], "minus": spec["a"] - spec["b"], "times": spec["a"] * spec["b"]}
    e_is = en("is")
    z_is = zh("等于", (e_is,))
    if spec["q"]:  # what is three plus five ? -> 三 加 五 等于 几 ？
        e_what = en("what")
        return finish([e_what, e_is] + e_a + [e_op] + e_b, z_a + [zh(OPS[spec["op"]], (e_op,))] + z_b +
                      [z_is, zh("几", (e_what,))], question=True, tags=("number", "wh_question"),
                      alternatives=[_plain(z_a) + [zh(OPS[spec["op"]])] + _plain(z_b) + [zh("等于"), zh("多少")]])
    e_c, z_c = number(value[spec["op"]])
    return finish(e_a + [e_op] + e_b + [e_is] + e_c, z_a + [zh(OPS[spec["op"]], (e_op,))] + z_b + [z_is] + z_c,
                  tags=("number",))


def _plain(z):
    return [zh(t[0]) for t in z]


def _row(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_sit, e_in, e_the = en(_verb(s, "sit", "sits")), en("in"), en("the")
    e_o, z_o = ordinal(spec["n"])
    e_row = en("row")
    z = zs + [zh("坐", (e_sit,)), zh("在", (e_in,)), z_o, zh("排", (e_row,))]
    return finish(es + [e_sit, e_in, e_the] + e_o + [e_row], z, tags=("number",))


def _floor(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_live, e_on, e_the = en(_verb(s, "live", "lives")), en("on"), en("the")
    e_o, z_o = ordinal(spec["n"])
    e_floor = en("floor")
    z_num = zh(z_o[0][1:], z_o[1])  # on the third floor -> 在 三 楼 (or 在 第三 层)
    z = zs + [zh("住", (e_live,)), zh("在", (e_on,)), z_num, zh("楼", (e_floor,))]
    alt = [zh(t[0]) for t in zs] + [zh("住"), zh("在"), zh(z_o[0]), zh("层")]
    return finish(es + [e_live, e_on, e_the] + e_o + [e_floor], z, tags=("number",), alternatives=[alt])


def _day(spec):
    s = spec["subj"]
    es, zs = subject(s)
    words, _, place_zh = PLACES[spec["place"]]
    e_went, e_to = en("went"), en("to")
    e_place = [en(w) for w in words]
    e_on, e_the, e_day = en("on"), en("the"), en("day")
    e_o, z_o = ordinal(spec["n"])
    z = zs + [z_o, zh("天", (e_day, e_on)), zh("去", (e_went,), (e_to,)), zh("了", (), (e_went,)),
              zh(place_zh, (e_place[-1],))]
    return finish(es + [e_went, e_to] + e_place + [e_on, e_the] + e_o + [e_day], z,
                  tags=("number", "time_front", "aspect_le"))


def _lesson(spec):
    row = _subjects()[spec["subject"]]
    e_the, e_lesson, e_is = en("the"), en("lesson"), en("is")
    e_o, z_o = ordinal(spec["n"])
    e_s = [en(w) for w in row["en"].split()]
    z = [z_o, zh("节", (e_lesson,), tuple(e_o)), zh("课", (e_lesson,)), zh("是", (e_is,)), zh(row["zh"], tuple(e_s)),
         zh("课", (), tuple(e_s))]
    return finish([e_the] + e_o + [e_lesson, e_is] + e_s, z, tags=("number", "measure_word"),
                  alternatives=[[zh(t[0]) for t in z[:-1]]])
