"""The bilingual lexicon of the toy English->Chinese corpus, read from the data files of ``helpers/corpus/data/``.

The word tables (nouns.tsv, verbs.tsv, adjectives.tsv, places.tsv, times.tsv, names.tsv, ...; see
data/README.md) are turned here into the Python structures the grammar and the sampler use. Every
content word the grammar in ``helpers.corpus.grammar`` can produce is listed there, with its Chinese
translation, its measure word (量词) and the semantic classes that the grammar uses as selectional
restrictions (only edible things are eaten, only readable things are read, ...).

Chinese tokens follow the segmentation of DESIGN.md §4 (corpus 2.0): numeral, demonstrative and
measure word are separate tokens (一 名 学生, 三 辆 车, 这 本 书, 几 个 苹果), so that the measure word
can be aligned to its noun; everything else is a word (学生, 图书馆, 喜欢, 的, 了, 们).
"""

from __future__ import annotations

from dataclasses import dataclass

from helpers.corpus.syllabus import read_tsv


def _split(cell: str) -> tuple:
    return tuple(cell.split())


def _zh_links(row: dict) -> tuple:
    """Chinese tokens with the English indices sure-linked to each: "每天 早上" + "0-0 1-1" -> ((每天, (0,)), ...)."""
    pairs = [tuple(int(x) for x in link.split("-")) for link in row["links"].split()]
    return tuple((z, tuple(sorted(i for i, j in pairs if j == jj))) for jj, z in enumerate(row["zh"].split()))


# --------------------------------------------------------------------------- pronouns, names
# key: (subject form, object form, possessive form, Chinese, person, gender)
PRONOUNS = {r["key"]: (r["subject"], r["object"], r["possessive"], r["zh"], r["person"], r["gender"])
            for r in read_tsv("pronouns")}
NAMES = {r["en"]: (r["zh"], r["gender"]) for r in read_tsv("names")}


# --------------------------------------------------------------------------- nouns
@dataclass(frozen=True)
class Noun:
    key: str
    sg: str
    pl: str
    zh: str
    mw: str  # measure word (量词); "" for mass nouns
    cls: frozenset
    gender: str = ""
    conts: tuple = ()  # containers for mass nouns ("cup" -> 一杯 茶)
    mass: bool = False


def _noun(r: dict) -> Noun:
    return Noun(r["en_sg"], r["en_sg"], r["en_pl"], r["zh"], r["measure_word"], frozenset(_split(r["classes"])),
                r["gender"], _split(r["containers"]), r["group"] == "mass")


def _group(name: str) -> dict:
    return {r["en_sg"]: _noun(r) for r in read_tsv("nouns") if r["group"] == name}


PROFESSIONS = _group("profession")
PEOPLE = _group("people")
KIN = _group("kin")
ANIMALS = _group("animal")
THINGS = _group("thing")
# person / people -> 人 (这 个 人, 三 个 人); hour -> 小时 (for two hours -> 两 个 小时, after the verb)
OTHER = _group("other")
# Nouns whose definite form has no measure word in Chinese ("open the door" -> 打开 门).
BARE_DEF = _group("bare_def")
MASS = _group("mass")
# container -> (singular, plural, Chinese measure word)
CONTAINERS = {r["key"]: (r["en_sg"], r["en_pl"], r["measure_word"]) for r in read_tsv("containers")}

NOUNS: dict[str, Noun] = {**PROFESSIONS, **PEOPLE, **KIN, **ANIMALS, **THINGS, **BARE_DEF, **MASS, **OTHER}

# --------------------------------------------------------------------------- places
# key: (English words after the preposition, preposition, Chinese)
PLACES = {r["key"]: (_split(r["en"]), r["prep"], r["zh"]) for r in read_tsv("places")}
# a place adverb: "he works there" -> 他 在 那里 工作 (no preposition in English)
THERE = {r["en"]: r["zh"] for r in read_tsv("there")}
# locative prepositions around a landmark noun: the book is on the table -> 书 在 桌子 上
LOCATIVES = {r["key"]: (_split(r["en"]), r["zh"]) for r in read_tsv("locatives")}

# --------------------------------------------------------------------------- adjectives
# key: (Chinese stem, kind, noun class it needs); kind: color = 红色 的 / 是 红色 的,
# mono = attributive without 的 (大 狗) and predicative 很 大, de = 漂亮 的 / 很 漂亮,
# hende = 很 贵 的 / 很 贵, human = predicative only (很 累)
ADJECTIVES = {r["en"]: (r["zh"], r["kind"], r["noun_class"]) for r in read_tsv("adjectives")}
# weather: "it is cold today" -> 今天 天气 很 冷 (it - 天气); "the weather is good" -> 天气 很 好
WEATHER_ADJ = ("hot", "cold", "good", "bad")
# colours that the noun really comes in (no red dogs or green rabbits); nouns not listed take any colour
COLORS_OF = {r["en_sg"]: _split(r["colors"]) for r in read_tsv("nouns") if r["colors"]}
NEG_BAD_ADJ = {r["en"] for r in read_tsv("adjectives") if r["negate"] == "no"}  # 不有趣 is stiff
NO_VERY_ADJ = {r["en"] for r in read_tsv("adjectives") if r["very"] == "no"}  # *very great*

# --------------------------------------------------------------------------- verbs
# key: (base, 3sg, past, -ing, particle, Chinese, object classes, places, tenses, flags)
# tenses: p = present habitual, d = past, f = future (will), g = progressive, c = can (ability)
# flags: s = stative (no 了, no progressive, 了-free past), w = "what" may ask for the object,
#        l = intransitive past takes sentence-final 了, h = object may be a person ("who" object)
_VERB_COLS = ("base", "s", "past", "ing", "particle", "zh", "objects", "places", "tenses", "flags")
VERBS = {r["key"]: tuple(r[c] for c in _VERB_COLS) for r in read_tsv("verbs")}
# the Chinese verb of "play" depends on its object (踢 足球, 打 篮球, 下 象棋, 弹 钢琴)
PLAY_ZH = {r["en_sg"]: r["play"] for r in read_tsv("nouns") if r["play"]}

# intransitive: (base, 3sg, past, -ing, Chinese, places, tenses, flags)
_INTR_COLS = ("base", "s", "past", "ing", "zh", "places", "tenses", "flags")
INTRANSITIVE = {r["key"]: tuple(r[c] for c in _INTR_COLS) for r in read_tsv("intransitive")}
# English particles of intransitive verbs: get up -> 起床 (get and up both sure to 起床)
PARTICLE_I = {r["key"]: r["particle"] for r in read_tsv("intransitive") if r["particle"]}
# "come" moves like "go": come to school -> 来 学校, come home -> 回 家
COME = ("come", "comes", "came", "coming", "来")
# the Chinese verb of "meet" is 见 for an arranged or habitual meeting (present / future), 遇到 for a chance one
MEET_PF = "见"
GO = ("go", "goes", "went", "going", "去")
GO_PLACES = [r["key"] for r in read_tsv("places") if r["go"] == "yes"]
# by-phrases of "go": English tokens, Chinese tokens as (word, sure English indices)
BY = {r["key"]: (_split(r["en"]), _zh_links(r)) for r in read_tsv("by")}

# --------------------------------------------------------------------------- time expressions
# key: (English tokens, Chinese tokens as (word, sure English indices), tenses)
TIMES = {r["key"]: (_split(r["en"]), _zh_links(r), r["tenses"]) for r in read_tsv("times")}
# a week or more away: no momentary action then (not "close the door next year")
FAR_TIMES = {r["key"] for r in read_tsv("times") if r["far"] == "yes"}
# frequency adverbs stand before the verb in both languages
FREQ = {r["en"]: r["zh"] for r in read_tsv("frequency")}
# never: present -> 从来 不 V, past -> 从来 没 V (both tokens sure to "never")
NEVER_ZH = ("从来", "不", "没")

NUMBERS_EN = {int(r["n"]): r["en"] for r in read_tsv("counting")}
NUMBERS_ZH = {int(r["n"]): r["zh"] for r in read_tsv("counting")}
# "and" between clauses is not a connective word in Chinese: ， + 还 (same agent) or a bare ， (see grammar)
CONNECTORS = {"and": "还", "but": "但是", "because": "因为", "so": "所以", "then": "然后"}  # then = ", and then"
WH_ZH = {"what": "什么", "who": "谁", "where": "哪里", "when": "什么时候", "why": "为什么", "how": "怎么"}
# function words of the grammar that the tables above do not list
FUNCTION_EN = ("a an the this that these those 's not do does did will can am is are was were very "
               "who what where when why how many of to in at on . , ?").split()
FUNCTION_ZH = ("的 了 吗 不 没 没有 会 能 可以 很 是 在 这 那 这些 那些 几 回 和 们 不是 都 。 ， ？").split()
# corpus 3.0 words a learner types first: it, there is, with ... together, or, never, 正在
FUNCTION_EN_3 = "it there with together or never early no too".split()
FUNCTION_ZH_3 = "它 有 一起 还是 或者 正在 下雨 去 喝 见 早 里 也 就".split()
RAIN = ("rain", "rains", "rained", "raining", "下雨")
