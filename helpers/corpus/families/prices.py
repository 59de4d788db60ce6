"""Prices and shopping (syllabus: 购物): how much is this shirt ? -> 这 件 衬衫 多少 钱 ？

Things and believable prices come from ``data/prices.tsv`` (nouns of the lexicon, so the measure word is
the lexicon's); numbers from ``numerals``. "yuan" is sure to 块 and possible to 钱 (五十 块 钱, 七十 五 块
钱; the alternative 五十 元 goes to the refs); "how much" is sure to 多少, 钱 possible to "much". Patterns:

* how_much: how much is this shirt ? it is fifty yuan . -> 这 件 衬衫 多少 钱 ？ 这 件 五十 块 钱 。 (the
  answer's "it" is sure to 这, its measure word possible: the shop assistant says 这 件; refs 五十 块 钱 。
  and 五十 元 。 without it); plural: how much are these apples ? -> 这些 苹果 多少 钱 ？
* costs: this book costs twenty yuan -> 这 本 书 要 二十 块 钱 (costs - 要; ref without 要); "is" for "costs"
* buy: i want to buy two shirts -> 我 想 买 两 件 衬衫
* spent: i bought a shirt for fifty yuan -> 我 花 五十 块 钱 买 了 一 件 衬衫 (the price moves before the verb)
* money: tom has twenty yuan -> 汤姆 有 二十 块 钱
"""

from __future__ import annotations

from helpers.corpus.families.numerals import counted, number
from helpers.corpus.families.subjects import HAVE, person, sample_subject, subject
from helpers.corpus.lexicon import NOUNS
from helpers.corpus.syllabus import read_tsv
from helpers.corpus.tokens import en, ens, finish, zh

PATTERNS = ("how_much", "how_much", "costs", "buy", "spent", "money")
DEM = {"this": "这", "that": "那", "these": "这些", "those": "那些"}


def _items():
    return read_tsv("prices")


def sample(rng) -> dict:
    pat = rng.choice(PATTERNS)
    i = rng.randrange(len(_items()))
    row = _items()[i]
    spec = {"pat": pat, "item": i, "subj": sample_subject(rng, prons=("i", "he", "she", "we", "they"))}
    plural = not row["each"] or rng.random() < 0.3
    spec["dem"] = rng.choice(("these", "those") if plural else ("this", "that"))
    spec["n"] = rng.randint(2, 5) if pat in ("buy", "spent") and plural else 1
    unit = rng.randint(int(row["low"]), int(row["high"]))
    spec["price"] = min(100, unit * (spec["n"] if row["each"] else 1))  # these hats: the price of one
    spec["answer"] = rng.random() < 0.6
    if spec["n"] > 1:
        spec["np"] = counted(spec["n"], row["noun"])
    spec["verb"] = rng.choice(("costs", "is"))
    return spec


def render(spec):
    return globals()["_" + spec["pat"]](spec)


def _plain(z):
    return [zh(t[0]) for t in z]


def _yuan(n):
    """(English tokens, Chinese tokens, the alternative Chinese words) of "fifty yuan" -> 五十 块 钱 (五十 元)."""
    e_n, z_n = number(n, mw=True)
    e_y = en("yuan")
    return e_n + [e_y], z_n + [zh("块", (e_y,), tuple(e_n)), zh("钱", (), (e_y,))], [t[0] for t in z_n] + ["元"]


def _np(spec, e_dem):
    """(English tokens, Chinese tokens) of "this shirt" / "these apples" -> 这 件 衬衫 / 这些 苹果."""
    noun = NOUNS[_items()[spec["item"]]["noun"]]
    plural = spec["dem"] in ("these", "those")
    e_n = en(noun.pl if plural else noun.sg)
    z = [zh(DEM[spec["dem"]], (e_dem,))]
    if not plural:
        z.append(zh(noun.mw, (e_n,), (e_dem,)))
    return [e_dem, e_n], z + [zh(noun.zh, (e_n,))]


def _how_much(spec):
    plural = spec["dem"] in ("these", "those")
    e_how, e_much, e_is = ens("how much " + ("are" if plural else "is"))
    e_np, z_np = _np(spec, en(spec["dem"]))
    e_q = en("?")
    zq = z_np + [zh("多少", (e_how, e_much)), zh("钱", (), (e_much,)), zh("？", (e_q,))]
    eq = [e_how, e_much, e_is] + e_np + [e_q]
    if not spec["answer"]:
        return finish(eq[:-1], zq[:-1], question=True, tags=("wh_question", "measure_word"))
    e_it, e_be = ens("they are" if plural else "it is")
    e_y, z_y, alt = _yuan(spec["price"])
    z_it = [zh(DEM[spec["dem"]][0] + ("些" if plural else ""), (e_it,))]
    if not plural:
        z_it.append(zh(z_np[1][0], (), (e_it,)))
    alts = [_plain(zq + z_y), _plain(zq) + [zh(w) for w in alt], _plain(zq + z_it) + [zh(w) for w in alt]]
    return finish(eq + [e_it, e_be] + e_y, zq + z_it + z_y, tags=("wh_question", "measure_word"), alternatives=alts)


def _costs(spec):
    plural = spec["dem"] in ("these", "those")
    e_np, z_np = _np(spec, en(spec["dem"]))
    verb = spec["verb"] if not plural else {"costs": "cost", "is": "are"}[spec["verb"]]
    e_v = en(verb)
    e_y, z_y, alt = _yuan(spec["price"])
    z_v = [zh("要", (e_v,))] if verb.startswith("cost") else []
    alts = [_plain(z_np + z_y), _plain(z_np) + [zh(w) for w in alt]]
    return finish(e_np + [e_v] + e_y, z_np + z_v + z_y, tags=("measure_word",), alternatives=alts)


def _obj(spec):
    """(English tokens, Chinese tokens) of "a shirt" / "three apples" -> 一 件 衬衫 / 三 个 苹果."""
    noun = NOUNS[_items()[spec["item"]]["noun"]]
    if spec["n"] == 1:
        e_a, e_n = en("an" if noun.sg[0] in "aeiou" else "a"), en(noun.sg)
        return [e_a, e_n], [zh("一", (e_a,)), zh(noun.mw, (e_n,), (e_a,)), zh(noun.zh, (e_n,))]
    e_num, z_num = number(spec["n"], mw=True)
    e_n = en(noun.pl)
    return e_num + [e_n], z_num + [zh(noun.mw, (e_n,), tuple(e_num)), zh(noun.zh, (e_n,))]


def _buy(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_want, e_to, e_buy = ens(("wants" if person(s) == "3s" else "want") + " to buy")
    e_o, z_o = _obj(spec)
    z = zs + [zh("想", (e_want,)), zh("买", (e_buy,), (e_to,))] + z_o
    return finish(es + [e_want, e_to, e_buy] + e_o, z, tags=("measure_word",),
                  alternatives=[_plain(zs) + [zh("想要"), zh("买")] + _plain(z_o)])


def _spent(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_bought = en("bought")
    e_o, z_o = _obj(spec)
    e_for = en("for")
    e_y, z_y, alt = _yuan(spec["price"])
    z_hua = zh("花", (), (e_for,))
    tail = [zh("买", (e_bought,)), zh("了", (), (e_bought,))] + z_o
    z = zs + [z_hua] + z_y + tail
    return finish(es + [e_bought] + e_o + [e_for] + e_y, z, tags=("measure_word", "aspect_le"),
                  alternatives=[_plain(zs) + [zh("用")] + _plain(z_y + tail)])


def _money(spec):
    s = spec["subj"]
    es, zs = subject(s)
    e_have = en(HAVE.get(person(s), "have"))
    e_y, z_y, alt = _yuan(spec["price"])
    z0 = zs + [zh("有", (e_have,))]
    return finish(es + [e_have] + e_y, z0 + z_y, tags=("number",), alternatives=[_plain(z0) + [zh(w) for w in alt]])
