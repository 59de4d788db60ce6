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


def _bare(n):
    return {"k": "noun", "n": n, "d": "bare"}


def _kin(n, p):
    return {"k": "noun", "n": n, "d": "poss", "poss": ("pron", p)}




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
    "first ... after that -> 先 (after the time word) ... 之后": (
        {"chain": [_act("drink", "p", _p("she"), obj={"k": "noun", "n": "milk", "d": "bare"}, time="every_morning",
                        first=True), "after_that", _act("go", "p", _p("she"), dest="school", drop=True)]},
        "she first drinks milk every morning , and after that she goes to school .",
        "她 每天 早上 先 喝 牛奶 ， 之后 去 学校 。",
        "she-她 every-每天 morning-早上 first-先 drinks-喝 milk-牛奶 ,-， after-之后 goes-去 school-学校 .-。",
        "and~之后 that~之后 to~去"),
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
    # ---- corpus 4.0: a story in two to four sentences, one event one clause, every good phrasing
    "a new sentence opens with its time: . in the afternoon -> 。 下午": (
        {"chain": [_act("go", "d", _name("tom"), dest="park"), "serial",
                   _act("play", "d", _p("he"), obj=_bare("football"), drop=True, en_drop=True), "stop:afternoon",
                   _act("go", "d", _p("he"), dest="library"), "serial",
                   _act("read", "d", _p("he"), obj=_a("book"), drop=True, en_drop=True)]},
        "tom went to the park and played football . in the afternoon he went to the library and read a book .",
        "汤姆 去 公园 踢 足球 了 。 下午 他 去 图书馆 看 了 一 本 书 。",
        "tom-汤姆 went-去 park-公园 played-踢 football-足球 .-。 afternoon-下午 he-他 went#2-去#2 "
        "library-图书馆 read-看 a-一 book-本 book-书 .#2-。#2",
        "to~去 played~了 in~下午 the#2~下午 to#2~去#2 read~了#2 a~本"),
    "tired after a swim: a new sentence with 觉得 (not a bare ， 很 累 ， 就)": (
        {"chain": [_act("swim", "d", _p("he"), place="pool"), "stop",
                   {"type": "cop_adj", "adj": "tired", "tense": "d", "subj": _p("he"), "feel": True}, "so_jiu",
                   _act("go", "d", _p("he"), dest="home", drop=True)]},
        "he swam in the pool . he was tired , so he went home .",
        "他 在 游泳池 游泳 了 。 他 觉得 很 累 ， 就 回 家 了 。",
        "he-他 in-在 pool-游泳池 swam-游泳 .-。 he#2-他#2 tired-累 ,-， so-就 went-回 home-家 .#2-。#2",
        "swam~了 was~觉得 was~很 went~了#2"),
    "two women are 她们": (
        {"chain": [_act("go", "d", {"k": "coord", "items": [_name("lily"), _name("anna")]}, dest="park"), "stop",
                   _act("play", "d", {"k": "pron", "p": "they", "fem": True}, obj=_bare("tennis"), together=True)]},
        "lily and anna went to the park . they played tennis together .",
        "莉莉 和 安娜 去 了 公园 。 她们 一起 打 网球 了 。",
        "lily-莉莉 and-和 anna-安娜 went-去 park-公园 .-。 they-她们 together-一起 played-打 tennis-网球 .#2-。#2",
        "to~去 went~了 played~了#2"),
    "a day's work is 上班, with no 了 in the middle of the day; after that -> 之后": (
        {"chain": [_act("work", "d", _p("she"), place="hospital", time="yesterday", shift=True), "after_that",
                   _act("go", "d", _p("she"), dest="supermarket", drop=True), "serial",
                   _act("buy", "d", _p("she"), obj=_bare("bread"), drop=True, en_drop=True)]},
        "she worked at the hospital yesterday , and after that she went to the supermarket and bought bread .",
        "她 昨天 在 医院 上班 ， 之后 去 超市 买 面包 了 。",
        "she-她 yesterday-昨天 at-在 hospital-医院 worked-上班 ,-， after-之后 went-去 supermarket-超市 "
        "bought-买 bread-面包 .-。",
        "and~之后 that~之后 to~去 bought~了"),
    "lost her key -> 丢 了 钥匙 (Chinese drops the possessor)": (
        {"chain": [_act("lose", "d", _name("emma"), obj={"k": "noun", "n": "key", "d": "poss", "poss": ("pron", "she"),
                                                          "zh_poss_drop": True}, place="school", time="yesterday"),
                   "but", _act("find", "d", _kin("brother", "she"), obj={"k": "noun", "n": "key", "d": "the"})]},
        "emma lost her key at school yesterday , but her brother found the key .",
        "艾玛 昨天 在 学校 丢 了 钥匙 ， 但是 她 哥哥 找到 钥匙 了 。",
        "emma-艾玛 yesterday-昨天 at-在 school-学校 lost-丢 key-钥匙 ,-， but-但是 her#2-她 brother-哥哥 "
        "found-找到 key#2-钥匙#2 .-。",
        "lost~了 found~了#2"),
    "going home and what one does there, then 还 + V 了 + object at the end (还 听 了 音乐)": (
        {"chain": [_act("go", "d", _p("he"), dest="home"), "serial",
                   _act("watch", "d", _p("he"), obj=_bare("tv"), drop=True, en_drop=True), "and_also",
                   _act("listen_to", "d", _p("he"), obj=_bare("music"), drop=True)]},
        "he went home and watched tv , and he also listened to music .",
        "他 回 家 看 了 电视 ， 还 听 了 音乐 。",
        "he-他 went-回 home-家 watched-看 tv-电视 ,-， also-还 listened-听 music-音乐 .-。",
        "watched~了 and#2~还 to~听 listened~了#2"),
    "the possessor that is the subject is not said again: we helped our mother -> 我们 帮助 了 妈妈": (
        {"chain": [_act("help", "d", _p("we"), obj=_kin("mother", "we")), "stop:evening",
                   _act("go", "d", _p("we"), dest="cinema")]},
        "we helped our mother . in the evening we went to the cinema .",
        "我们 帮助 了 妈妈 。 晚上 我们 去 了 电影院 。",
        "we-我们 helped-帮助 mother-妈妈 .-。 evening-晚上 we#2-我们#2 went-去 cinema-电影院 .#2-。#2",
        "helped~了 in~晚上 the~晚上 to~去 went~了#2"),
}


# the other equally good phrasings a story carries (Pair.refs): one connective swapped at a time
REFS = {
    "so -> 所以, also 就": (
        {"chain": [{"type": "cop_adj", "adj": "tired", "tense": "d", "subj": _p("i")}, "so",
                   _act("go", "d", _p("i"), dest="home", drop=True)]},
        "我 很 累 ， 所以 回 家 了 。", ("我 很 累 ， 就 回 家 了 。",)),
    "after that -> 之后, also 然后; but -> 但是, also 可是": (
        {"chain": [_act("buy", "d", _name("tom"), obj=_a("apple")), "but",
                   _act("buy", "d", _p("he"), obj=_bare("bread"), neg=True, drop=True), "after_that",
                   _act("go", "d", _p("he"), dest="home", drop=True)]},
        "汤姆 买 了 一 个 苹果 ， 但是 没 买 面包 ， 之后 回 家 了 。",
        ("汤姆 买 了 一 个 苹果 ， 可是 没 买 面包 ， 之后 回 家 了 。",
         "汤姆 买 了 一 个 苹果 ， 但是 没 买 面包 ， 然后 回 家 了 。")),
    "no other phrasing repeats a connective the story already has (然后 ... 之后 stays)": (
        {"chain": [_act("go", "d", _p("he"), dest="park"), "and_then",
                   _act("go", "d", _p("he"), dest="library", drop=True), "after_that",
                   _act("go", "d", _p("he"), dest="home", drop=True)]},
        "他 去 了 公园 ， 然后 去 了 图书馆 ， 之后 回 家 了 。", ()),
}


@pytest.mark.parametrize("name", list(REFS))
def test_a_story_carries_every_equally_good_phrasing(name):
    spec, tgt, refs = REFS[name]
    pair = Pair(*render(spec))
    assert " ".join(pair.tgt) == tgt
    assert tuple(" ".join(r) for r in pair.refs) == refs
    assert pair.references[0] == pair.tgt


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


def test_every_plan_name_is_carried_by_its_pairs_and_no_plan_passes_8_percent_of_long():
    from collections import Counter

    long = load_corpus("long")
    plans = Counter(p.plan for p in long)
    assert "" not in plans and max(plans.values()) <= 0.08 * len(long)
    assert len(plans) >= 40
    assert len({p.plan for p in load_corpus("train") if p.plan}) >= 40


# --------------------------------------------------------------------------- the lints of corpus 4.0
def test_a_long_story_ends_at_home_when_its_last_clause_is_at_home():
    assert S.ends_at_home(_pair("x", "他 去 了 公园 ， 然后 回 家 做饭 了 。"))
    assert S.ends_at_home(_pair("x", "晚上 他 在 家 看 了 电视 ， 还 听 了 音乐 。"))
    assert not S.ends_at_home(_pair("x", "他 回 家 吃 了 饭 。 下午 他 去 电影院 看 了 一 部 电影 。"))


def test_a_bare_mid_chain_tired_is_counted_and_jue_de_is_not():
    assert S.bare_tired(_pair("x", "她 买 了 一 个 杯子 ， 很 累 ， 就 回 家 了 。")) == 1
    assert S.bare_tired(_pair("x", "她 买 了 一 个 杯子 。 她 觉得 很 累 ， 就 回 家 了 。")) == 0
    assert S.bare_tired(_pair("x", "我 很 累 ， 就 回 家 了 。")) == 0


def test_one_event_split_in_two_clauses_is_counted():
    assert S.split_events(_pair("x", "他 去 了 公园 ， 散步 了 。")) == 1
    assert S.split_events(_pair("x", "他 然后 回 家 了 ， 做饭 了 。")) == 1
    assert S.split_events(_pair("x", "他 去 公园 散步 了 。")) == 0
    assert S.split_events(_pair("x", "他 去 了 公园 ， 然后 去 了 图书馆 。")) == 0


def test_a_change_of_place_needs_a_connective():
    assert S.place_without_connective(_pair("x", "他 在 家 看 了 电视 ， 去 了 饭馆 。")) == 1
    assert S.place_without_connective(_pair("x", "他 在 家 看 了 电视 ， 坐 车 去 了 饭馆 。")) == 1
    assert S.place_without_connective(_pair("x", "他 在 家 看 了 电视 ， 后来 去 了 饭馆 。")) == 0


def test_because_so_in_one_english_sentence_and_comma_ands_are_counted():
    assert S.because_so(_pair("he did not go , because he was tired , so he slept .", "x"))
    assert not S.because_so(_pair("he did not go because he was tired . so he slept .", "x"))
    assert S.comma_ands(_pair("he ran , and she swam , and then they went home and slept .", "x")) == 2


def test_they_for_two_women_must_be_ta_men_with_the_female_radical():
    en = "lily and anna went to the park . they played tennis ."
    #      0    1   2    3    4  5   6   7  8     9      10   11
    bad = _pair(en, "莉莉 和 安娜 去 了 公园 。 他们 打 了 网球 。", sure=[(8, 7)])
    good = _pair(en, "莉莉 和 安娜 去 了 公园 。 她们 打 了 网球 。", sure=[(8, 7)])
    mixed = _pair("lily and tom went to the park . they played tennis .",
                  "莉莉 和 汤姆 去 了 公园 。 他们 打 了 网球 。", sure=[(8, 7)])
    assert S.male_they_for_women(bad) and not S.male_they_for_women(good) and not S.male_they_for_women(mixed)


def test_sample_markdown_has_60_train_a_third_over_20_tokens_40_long_40_novel_and_40_learner():
    from helpers.corpus.check import sample_markdown

    text = sample_markdown()
    sections = dict(part.split("\n", 1) for part in text.split("\n## ")[1:])
    counts = {name: sum(1 for line in body.splitlines() if line.startswith("EN: ")) for name, body in sections.items()}
    assert counts == {"train": 60, "long": 40, "novel": 40, "learner": 40}
    train_lengths = [len(line[4:].split()) for line in sections["train"].splitlines() if line.startswith("EN: ")]
    assert sum(n > 20 for n in train_lengths) == 20
