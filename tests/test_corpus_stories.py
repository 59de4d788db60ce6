"""One hand-written pair per discourse rule of the corpus 3.0 stories (helpers.corpus.discourse), and the
story rows of the self-check (helpers.corpus.check_stories) on hand-made pairs.

Links are written as "english-chinese" (sure) and "english~chinese" (possible only); "a#2" is the
second "a" of the sentence. Every case renders a chain spec and compares tokens and both link sets
exactly. A dropped subject (he#2 below) has no Chinese token and no link at all.
"""

import pytest

from helpers.corpus import Pair, build_vocabs, load_corpus
from helpers.corpus import check_stories as S
from helpers.corpus.surface import render
from tests.corpus_support import hand_links


def _p(p):
    return {"k": "pron", "p": p}


def _name(n):
    return {"k": "name", "n": n}


def _act(v, tense, subj, **kw):
    return {"type": "act", "v": v, "tense": tense, "subj": subj, **kw}


def _a(n):
    return {"k": "noun", "n": n, "d": "a"}




CASES = {
    "a continuing subject is dropped; then -> 然后": (
        {"chain": [_act("go", "d", _p("he"), dest="library"), "and_then",
                   _act("read", "d", _p("he"), obj=_a("book"), drop=True)]},
        "he went to the library , and then he read a book .", "他 去 了 图书馆 ， 然后 看 了 一 本 书 。",
        "he-他 went-去 library-图书馆 ,-， then-然后 read-看 a-一 book-本 book-书 .-。",
        "to~去 went~了 and~然后 read~了#2 a~本"),
    "going and what one does there: one clause (serial verbs), English drops the subject too": (
        {"chain": [_act("go", "d", _name("tom"), dest="park"), "serial",
                   _act("read", "d", _p("he"), obj=_a("book"), drop=True, en_drop=True)]},
        "tom went to the park and read a book .", "汤姆 去 公园 看 了 一 本 书 。",
        "tom-汤姆 went-去 park-公园 read-看 a-一 book-本 book-书 .-。", "to~去 read~了 a~本"),
    "one more thing by the same person: and also -> 还": (
        {"chain": [_act("read", "d", _name("tom"), obj=_a("book"), place="library"), "and_also",
                   _act("write", "d", _p("he"), obj=_a("letter"), drop=True)]},
        "tom read a book in the library , and he also wrote a letter .",
        "汤姆 在 图书馆 看 了 一 本 书 ， 还 写 了 一 封 信 。",
        "tom-汤姆 in-在 library-图书馆 read-看 a-一 book-本 book-书 ,-， also-还 wrote-写 a#2-一#2 "
        "letter-封 letter-信 .-。", "read~了 a~本 and~还 wrote~了#2 a#2~封"),
    "the same thing by another person: also -> 也": (
        {"chain": [_act("swim", "c", _name("tom")), "too", _act("swim", "c", _name("lily"))]},
        "tom can swim , and lily can also swim .", "汤姆 会 游泳 ， 莉莉 也 会 游泳 。",
        "tom-汤姆 can-会 swim-游泳 ,-， lily-莉莉 also-也 can#2-会#2 swim#2-游泳#2 .-。", "and~也"),
    "two parallel things contrasted: while -> 而": (
        {"chain": [_act("go", "d", _name("tom"), dest="park"), "while", _act("go", "d", _name("lily"), dest="library")]},
        "tom went to the park , while lily went to the library .", "汤姆 去 了 公园 ， 而 莉莉 去 了 图书馆 。",
        "tom-汤姆 went-去 park-公园 ,-， while-而 lily-莉莉 went#2-去#2 library-图书馆 .-。",
        "to~去 went~了 to#2~去#2 went#2~了#2"),
    "an immediate consequence: so -> 就 after the dropped subject": (
        {"chain": [{"type": "cop_adj", "adj": "tired", "tense": "d", "subj": _p("i")}, "so_jiu",
                   _act("go", "d", _p("i"), dest="home", drop=True)]},
        "i was tired , so i went home .", "我 很 累 ， 就 回 家 了 。",
        "i-我 tired-累 ,-， so-就 went-回 home-家 .-。", "was~很 went~了"),
    "a plan that rain spoils: but -> 可是, it rained -> 下雨 了": (
        {"chain": [_act("go", "d", _p("we"), dest="beach"), "but_kes", {"type": "weather", "w": "rain", "tense": "d"}]},
        "we went to the beach , but it rained .", "我们 去 了 海边 ， 可是 下雨 了 。",
        "we-我们 went-去 beach-海边 ,-， but-可是 it-下雨 rained-下雨 .-。", "to~去 went~了 rained~了#2"),
    "a condition: if ... , 就 (time before the verb, 如果 明天 下雨)": (
        {"chain": [{"type": "weather", "w": "rain", "tense": "p", "time": "tomorrow", "if": True}, "cons",
                   _act("go", "f", _p("we"), dest="park", neg=True)]},
        "if it rains tomorrow , we will not go to the park .", "如果 明天 下雨 ， 我们 就 不 会 去 公园 。",
        "if-如果 tomorrow-明天 it-下雨 rains-下雨 ,-， we-我们 not-不 will-会 go-去 park-公园 .-。",
        "if~就 to~去"),
    "first ... after that -> 先 (after the time word) ... 接着": (
        {"chain": [_act("drink", "p", _p("she"), obj={"k": "noun", "n": "milk", "d": "bare"}, time="every_morning",
                        first=True), "after_that", _act("go", "p", _p("she"), dest="school", drop=True)]},
        "she first drinks milk every morning , and after that she goes to school .",
        "她 每天 早上 先 喝 牛奶 ， 接着 去 学校 。",
        "she-她 every-每天 morning-早上 first-先 drinks-喝 milk-牛奶 ,-， after-接着 goes-去 school-学校 .-。",
        "and~接着 that~接着 to~去"),
    "a question and its reason: ? because -> ？ 因为": (
        {"chain": [_act("go", "p", _name("tom"), dest="office", q="why", time="every_day"), "answer_because",
                   {"type": "cop_adj", "adj": "busy", "tense": "p", "subj": _p("he")}]},
        "why does tom go to the office every day ? because he is busy .",
        "汤姆 为什么 每天 去 办公室 ？ 因为 他 很 忙 。",
        "tom-汤姆 why-为什么 every-每天 day-每天 go-去 office-办公室 ?-？ because-因为 he-他 busy-忙 .-。",
        "to~去 is~很"),
    "a question and its answer: where ... ? he went ...": (
        {"chain": [_act("go", "d", _name("tom"), q="where", time="yesterday"), "answer",
                   _act("go", "d", _p("he"), dest="zoo")]},
        "where did tom go yesterday ? he went to the zoo .", "汤姆 昨天 去 了 哪里 ？ 他 去 了 动物园 。",
        "tom-汤姆 yesterday-昨天 go-去 where-哪里 ?-？ he-他 went-去#2 zoo-动物园 .-。",
        "did~了 to~去#2 went~了#2"),
    "a later future step: one will, one 会": (
        {"chain": [_act("go", "f", _p("we"), dest="market", time="tomorrow"), "and_then",
                   _act("buy", "f", _p("we"), obj={"k": "noun", "n": "bread", "d": "bare"}, drop=True, en_drop=True)]},
        "we will go to the market tomorrow and then buy bread .", "我们 明天 会 去 市场 ， 然后 买 面包 。",
        "we-我们 tomorrow-明天 will-会 go-去 market-市场 and-， then-然后 buy-买 bread-面包 .-。",
        "to~去 and~然后"),
    "weather as a cause: it was cold -> 天气 很 冷": (
        {"chain": [{"type": "weather", "w": "cold", "tense": "d", "time": "this_morning"}, "so",
                   _act("go", "d", _name("tom"), dest="school", by="bus")]},
        "it was cold this morning , so tom went to school by bus .",
        "今天 早上 天气 很 冷 ， 所以 汤姆 坐 公共汽车 去 了 学校 。",
        "this-今天 morning-早上 it-天气 cold-冷 ,-， so-所以 tom-汤姆 by-坐 bus-公共汽车 went-去 school-学校 .-。",
        "was~很 to~去 went~了"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_discourse_rule_renders_with_its_gold_alignment(name):
    spec, en, zh, sure, poss = CASES[name]
    pair = Pair(*render(spec))
    assert (" ".join(pair.src), " ".join(pair.tgt)) == (en, zh)
    assert pair.sure == hand_links(pair, sure, "-")
    assert pair.possible == pair.sure | hand_links(pair, poss, "~")


@pytest.mark.parametrize("name", list(CASES))
def test_discourse_rule_uses_only_vocabulary_words(name):
    src_vocab, tgt_vocab = build_vocabs()
    pair = Pair(*render(CASES[name][0]))
    assert all(t in src_vocab for t in pair.src) and all(t in tgt_vocab for t in pair.tgt)


# --------------------------------------------------------------------------- the story rows of the check
def _pair(en, zh, sure=(), poss=(), plan="outing"):
    return Pair(tuple(en.split()), tuple(zh.split()), frozenset(sure), frozenset(set(sure) | set(poss)), (), plan=plan)


def test_a_possessor_with_no_antecedent_of_its_gender_is_counted():
    bad = _pair("emma can swim , but his son can not swim .", "艾玛 会 游泳 ， 但是 他 儿子 不 会 游泳 。")
    good = _pair("tom can swim , but his son can not swim .", "汤姆 会 游泳 ， 但是 他 儿子 不 会 游泳 。")
    assert S.pronoun_without_antecedent(bad) and not S.pronoun_without_antecedent(good)


def test_they_needs_two_people_before_it_and_a_first_pronoun_introduces_the_story():
    assert S.pronoun_without_antecedent(_pair("tom went home , and they slept .", "x"))
    assert not S.pronoun_without_antecedent(_pair("tom and lily went home , and they slept .", "x"))
    assert not S.pronoun_without_antecedent(_pair("why does she go to the park ? because she likes it .", "x"))


def test_a_repeated_continuing_subject_is_counted_and_a_dropped_one_is_not():
    repeated = _pair("x", "他 去 了 图书馆 ， 然后 他 看 了 一 本 书 。")
    dropped = _pair("x", "他 去 了 图书馆 ， 然后 看 了 一 本 书 。")
    other = _pair("x", "汤姆 去 了 公园 ， 而 莉莉 去 了 图书馆 。")
    assert S.repeated_subjects(repeated) == (1, 1)
    assert S.repeated_subjects(dropped) == (1, 0)
    assert S.repeated_subjects(other) == (1, 0)


def test_bare_comma_joins_count_and_linked_only_to_a_comma():
    #            0   1    2  3   4   5   6  7      8      9
    en = "tom went to the park , and played football ."
    bare = _pair(en, "汤姆 去 了 公园 ， 踢 了 足球 。", sure=[(0, 0), (1, 1), (4, 3), (7, 5), (8, 7), (9, 8)],
                 poss=[(6, 4)])
    then = _pair(en, "汤姆 去 了 公园 ， 然后 踢 了 足球 。", poss=[(6, 5)])
    serial = _pair("tom went to the park and played football .", "汤姆 去 公园 踢 了 足球 。")
    assert S.bare_comma_joins(bare) == (1, 1)
    assert S.bare_comma_joins(then) == (1, 0)
    assert S.bare_comma_joins(serial) == (1, 0)


def test_every_plan_name_is_carried_by_its_pairs_and_no_plan_passes_a_tenth_of_long():
    from collections import Counter

    long = load_corpus("long")
    plans = Counter(p.plan for p in long)
    assert "" not in plans and max(plans.values()) <= 0.10 * len(long)
    assert len({p.plan for p in load_corpus("train") if p.plan}) >= 30


def test_sample_markdown_has_60_train_a_third_over_20_tokens_40_long_and_40_novel():
    from helpers.corpus.check import sample_markdown

    text = sample_markdown()
    sections = dict(part.split("\n", 1) for part in text.split("\n## ")[1:])
    counts = {name: sum(1 for line in body.splitlines() if line.startswith("EN: ")) for name, body in sections.items()}
    assert counts == {"train": 60, "long": 40, "novel": 40}
    train_lengths = [len(line[4:].split()) for line in sections["train"].splitlines() if line.startswith("EN: ")]
    assert sum(n > 20 for n in train_lengths) == 20
