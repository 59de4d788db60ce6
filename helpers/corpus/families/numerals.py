"""Number words 1-100, ordinals and clock times for the families (read from ``data/numbers.tsv``; not a family itself).

Token form (what the tokenizer must produce from a student's input):

* 21-99 are TWO English tokens, the tens word and the unit word: "twenty one" (a student's "twenty-one"
  should be split at the hyphen into "twenty one"; today's tokenizer gives "twenty - one"), and TWO Chinese
  tokens, the tens and the unit, each sure-linked to its own English word: twenty-二十, one-一 (二十 一).
  So the model learns ten tens and nine units instead of 72 rare one-token numerals. 1-20 and the tens
  30, 40, ..., 90 are one token on both sides (十一, 二十, 三十); 100 is "one hundred" -> 一百, one Chinese
  token sure to both English words.
* Ordinals stay ONE Chinese token, 第 + the numeral ("third" -> 第三, as a Chinese word segmenter writes
  it), and so are limited to 1-20 (one English word each): the generators ask for no "twenty first row"
  (``ordinal`` refuses it). Dates are not ordinals in Chinese: "october twenty first" -> 十月 二十 一 号,
  the cardinal's tokens sure to the ordinal's words (twenty-二十, first-一).
* "o'clock" is ONE English token (today's tokenizer splits it into "o ' clock"; keep it whole).
* Before a measure word a bare 2 is 两 (两 本 书, 两 点, 两 岁), elsewhere 二 (二十, 二月, 第二, 二 号);
  22 before a measure word is 二十 二 (二十 二 本 书), never 二十 两.
"""

from __future__ import annotations

from functools import cache

from helpers.corpus.syllabus import read_tsv
from helpers.corpus.tokens import en, ens, zh


@cache
def _table():
    return {int(r["value"]): r for r in read_tsv("numbers")}


def number_words(n: int) -> list[str]:
    """English words of 1-100: 7 -> ["seven"], 21 -> ["twenty", "one"], 100 -> ["one", "hundred"]."""
    t = _table()
    if n == 100:
        return ["one", "hundred"]
    if n in t:
        return [t[n]["en"]]
    return [t[n - n % 10]["en"], t[n % 10]["en"]]


def number_zh(n: int, mw: bool = False) -> list[str]:
    """Chinese tokens of 1-100: 7 -> ["七"], 21 -> ["二十", "一"], 100 -> ["一百"]; ``mw``: it stands
    before a measure word (a bare 2 -> 两; 22 stays 二十 二)."""
    if n == 2 and mw:
        return ["两"]
    t = _table()
    if n in t:
        return [t[n]["zh"]]
    return [t[n - n % 10]["zh"], t[n % 10]["zh"]]


def ordinal_words(n: int) -> list[str]:
    """English ordinal of 1-100: 3 -> ["third"], 21 -> ["twenty", "first"]."""
    t = _table()
    if n in t:
        return [t[n]["ord"]]
    return [t[n - n % 10]["en"], t[n % 10]["ord"]]


def ordinal_zh(n: int) -> str:
    """Chinese ordinal of 1-20 as one token: 3 -> 第三 (see the module docstring: no 21st)."""
    if not 1 <= n <= 20:
        raise ValueError(f"序数词只用 1-20 (ordinal 1-20 only): {n}")
    return "第" + number_zh(n)[0]


def number(n: int, mw: bool = False):
    """(English tokens, Chinese tokens) of a cardinal: each Chinese token sure to its own English word
    (twenty-二十, one-一), or 一百 sure to both words of "one hundred"."""
    e = [en(w) for w in number_words(n)]
    z = number_zh(n, mw)
    if len(z) == len(e):
        return e, [zh(w, (x,)) for w, x in zip(z, e)]
    return e, [zh(z[0], e)]


def ordinal(n: int):
    """(English tokens, Chinese token) of an ordinal of 1-20: third -> 第三."""
    e = [en(w) for w in ordinal_words(n)]
    return e, zh(ordinal_zh(n), e)


def counted(n: int, noun: str) -> list[dict]:
    """Noun-phrase specs of "n nouns" for a family spec's "np" key, so that ``helpers.corpus.novel`` sees the
    numeral-noun combos (三 匹 马) and keeps the held-out ones out of train: the number itself and, for
    "twenty three horses", also the last word's 1-10 value, the combo a reader of the English sees."""
    out = [{"k": "noun", "d": "num", "num": n, "n": noun}]
    last = number_words(n)[-1]
    unit = next((int(r["value"]) for r in _table().values() if r["en"] == last), 0)
    if unit <= 10 and unit != n:
        out.append({"k": "noun", "d": "num", "num": unit, "n": noun})
    return out


def clock_time(t):
    """(English tokens, Chinese tokens, alternative Chinese words) of a clock time: six thirty -> 六 点 半,
    seven forty five -> 七 点 四十 五 分."""
    e_h, z_h = number(t["h"], mw=True)
    h = [z[0] for z in z_h]
    form = t["form"]
    if form == "oclock":
        e = en("o'clock")
        return e_h + [e], z_h + [zh("点", (e,), tuple(e_h))], None
    dian = zh("点", (), tuple(e_h))
    if form == "thirty":
        e30 = en("thirty")
        return e_h + [e30], z_h + [dian, zh("半", (e30,))], h + ["点", "三十", "分"]
    if form == "half":
        e_half, e_past = ens("half past")
        return [e_half, e_past] + e_h, z_h + [zh("点", (e_past,), tuple(e_h)), zh("半", (e_half,))], None
    if form == "quarter":
        e_a, e_q, e_past = ens("a quarter past")
        z = z_h + [zh("点", (e_past,), tuple(e_h)), zh("一", (e_a,)), zh("刻", (e_q,))]
        return [e_a, e_q, e_past] + e_h, z, h + ["点", "十五", "分"]
    e_m, z_m = number(t["m"])
    z = z_h + [dian] + z_m + [zh("分", (), tuple(e_m))]
    alt = {15: h + ["点", "一", "刻"], 45: h + ["点", "三", "刻"]}.get(t["m"])
    return e_h + e_m, z, alt
