"""One hand-written pair per construction of corpus 2.0, with its gold alignment (helpers.corpus.grammar).

Links are written as "english-chinese" (sure) and "english~chinese" (possible only); "a#2" is the
second "a" of the sentence. Every test renders a spec and compares tokens and both link sets exactly.
"""

import pytest

from helpers.corpus import Pair, build_vocabs, encode_sentence, tokenize_en
from helpers.corpus.grammar import render


def _p(p):
    return {"k": "pron", "p": p}


def _n(n, d="bare", **kw):
    return {"k": "noun", "n": n, "d": d, **kw}


def _index(tokens, word):
    word, _, k = word.partition("#")
    hits = [i for i, t in enumerate(tokens) if t == word]
    return hits[int(k or 1) - 1]


def _links(pair, text, sep):
    out = set()
    for link in text.split():
        en, zh = link.rsplit(sep, 1) if sep == "~" else link.split(sep, 1)
        out.add((_index(pair.src, en), _index(pair.tgt, zh)))
    return out


CASES = {
    "negation scope: not every day -> 不是 每天 都": (
        {"type": "act", "v": "read", "tense": "p", "neg": True, "subj": _p("she"), "obj": _n("book"),
         "time": "every_day"},
        "she does not read books every day .", "她 不是 每天 都 看 书 。",
        "she-她 not-不是 every-每天 day-每天 read-看 books-书 .-。", "does~不是 every~都"),
    "ongoing action: 在 V": (
        {"type": "act", "v": "read", "tense": "g", "subj": _p("she"), "obj": _n("book", "a"), "place": "library"},
        "she is reading a book in the library .", "她 在 图书馆 看 一 本 书 。",
        "she-她 in-在 library-图书馆 reading-看 a-一 book-本 book-书 .-。", "is~在 reading~在 a~本"),
    "completed action, bare object: sentence-final 了": (
        {"type": "act", "v": "drink", "tense": "d", "subj": _p("i"), "obj": _n("tea"), "time": "yesterday"},
        "i drank tea yesterday .", "我 昨天 喝 茶 了 。",
        "i-我 yesterday-昨天 drank-喝 tea-茶 .-。", "drank~了"),
    "ability: can -> 会": (
        {"type": "act", "v": "swim", "tense": "c", "subj": _p("she")},
        "she can swim .", "她 会 游泳 。", "she-她 can-会 swim-游泳 .-。", ""),
    "speaking a language: 会 说": (
        {"type": "act", "v": "speak", "tense": "p", "subj": _p("he"), "obj": _n("chinese")},
        "he speaks chinese .", "他 会 说 中文 。", "he-他 speaks-说 chinese-中文 .-。", "speaks~会"),
    "permission: can i -> 可以": (
        {"type": "act", "v": "open", "tense": "c", "q": "yn", "subj": _p("i"), "obj": _n("window", "the")},
        "can i open the window ?", "我 可以 打开 窗户 吗 ？",
        "i-我 can-可以 open-打开 window-窗户 ?-？", "can~吗 ?~吗"),
    "possibility: can -> 能": (
        {"type": "act", "v": "help", "tense": "c", "subj": _p("he"), "obj": _p("you")},
        "he can help you .", "他 能 帮助 你 。", "he-他 can-能 help-帮助 you-你 .-。", ""),
    "noun coordination (object): 和": (
        {"type": "act", "v": "like", "tense": "p", "subj": _n("brother", "poss", poss=("pron", "i")),
         "obj": {"k": "coord", "items": [_n("banana"), _n("apple")]}},
        "my brother likes bananas and apples .", "我 哥哥 喜欢 香蕉 和 苹果 。",
        "my-我 brother-哥哥 likes-喜欢 bananas-香蕉 and-和 apples-苹果 .-。", ""),
    "noun coordination (subject)": (
        {"type": "cop_n", "noun": "student",
         "subj": {"k": "coord", "items": [{"k": "name", "n": "anna"}, {"k": "name", "n": "lily"}]}},
        "anna and lily are students .", "安娜 和 莉莉 是 学生 。",
        "anna-安娜 and-和 lily-莉莉 are-是 students-学生 .-。", ""),
    "plural definite: 们": (
        {"type": "act", "v": "play_i", "tense": "g", "subj": _n("child", "the", pl=True), "place": "park"},
        "the children are playing in the park .", "孩子 们 在 公园 玩 。",
        "children-孩子 in-在 park-公园 playing-玩 .-。", "the~们 children~们 are~在 playing~在"),
    "plural demonstrative: 那些": (
        {"type": "loc", "subj": _n("book", "those"), "loc": "on", "land": _n("table", "the", nomw=True)},
        "those books are on the table .", "那些 书 在 桌子 上 。",
        "those-那些 books-书 are-在 table-桌子 on-上 .-。", ""),
    "where is + place": (
        {"type": "loc", "q": "where", "subj": {"k": "place", "n": "library"}},
        "where is the library ?", "图书馆 在 哪里 ？", "library-图书馆 is-在 where-哪里 ?-？", ""),
    "where are + plural": (
        {"type": "loc", "q": "where", "subj": _n("key", "poss", poss=("pron", "i"), pl=True)},
        "where are my keys ?", "我 的 钥匙 在 哪里 ？", "my-我 keys-钥匙 are-在 where-哪里 ?-？", "my~的"),
    "subject relative in the past": (
        {"type": "cop_adj", "adj": "tall",
         "subj": _n("doctor", "the", rel={"t": "s", "v": "help", "tense": "d",
                                          "o": _n("mother", "poss", poss=("pron", "i"))})},
        "the doctor who helped my mother is tall .", "帮助 我 妈妈 的 那 位 医生 很 高 。",
        "helped-帮助 my-我 mother-妈妈 doctor-位 doctor-医生 tall-高 .-。", "who~的 the~那 the~位 is~很"),
    "object relative in the present": (
        {"type": "cop_adj", "adj": "interesting",
         "subj": _n("book", "the", rel={"t": "o", "s": _p("she"), "v": "like", "tense": "p"})},
        "the book that she likes is interesting .", "她 喜欢 的 那 本 书 很 有趣 。",
        "she-她 likes-喜欢 book-本 book-书 interesting-有趣 .-。", "that~的 the~那 the~本 is~很"),
    "question with 怎么": (
        {"type": "act", "v": "go", "tense": "p", "q": "how", "subj": _p("you"), "dest": "school"},
        "how do you go to school ?", "你 怎么 去 学校 ？", "you-你 how-怎么 go-去 school-学校 ?-？", "to~去"),
    "question with 怎么 and a time: the time comes first": (
        {"type": "act", "v": "go", "tense": "p", "q": "how", "subj": _p("you"), "dest": "cinema",
         "time": "on_weekends"},
        "how do you go to the cinema on weekends ?", "你 周末 怎么 去 电影院 ？",
        "you-你 on-周末 weekends-周末 how-怎么 go-去 cinema-电影院 ?-？", "to~去"),
    "question with 几 + measure word": (
        {"type": "act", "v": "have", "tense": "p", "q": "howmany", "subj": _p("you"), "obj": _n("book", "howmany")},
        "how many books do you have ?", "你 有 几 本 书 ？",
        "you-你 have-有 how-几 many-几 books-本 books-书 ?-？", "how~本 many~本"),
    "question with 什么": (
        {"type": "act", "v": "buy", "tense": "d", "q": "what", "subj": _p("you"), "obj": _n("book", "a")},
        "what did you buy ?", "你 买 了 什么 ？", "you-你 buy-买 what-什么 ?-？", "did~了"),
    "question with 为什么": (
        {"type": "act", "v": "like", "tense": "p", "q": "why", "subj": _p("you"), "obj": _n("music")},
        "why do you like music ?", "你 为什么 喜欢 音乐 ？", "you-你 why-为什么 like-喜欢 music-音乐 ?-？", ""),
    "question with 谁": (
        {"type": "act", "v": "help", "tense": "d", "q": "who_s", "subj": _p("he"), "obj": _p("you")},
        "who helped you ?", "谁 帮助 了 你 ？", "who-谁 helped-帮助 you-你 ?-？", "helped~了"),
    "numeral + measure word + noun": (
        {"type": "act", "v": "see", "tense": "d", "subj": _p("we"), "obj": _n("tree", "num", num=3)},
        "we saw three trees .", "我们 看见 了 三 棵 树 。",
        "we-我们 saw-看见 three-三 trees-棵 trees-树 .-。", "saw~了 three~棵"),
    "same agent, and also -> ， 还 (subject dropped; more in test_corpus_stories.py)": (
        {"chain": [{"type": "act", "v": "read", "tense": "d", "subj": {"k": "name", "n": "tom"},
                    "obj": _n("book", "a"), "place": "library"}, "and_also",
                   {"type": "act", "v": "write", "tense": "d", "subj": _p("he"), "obj": _n("letter", "a"),
                    "drop": True}]},
        "tom read a book in the library , and he also wrote a letter .",
        "汤姆 在 图书馆 看 了 一 本 书 ， 还 写 了 一 封 信 。",
        "tom-汤姆 in-在 library-图书馆 read-看 a-一 book-本 book-书 ,-， also-还 wrote-写 a#2-一#2 "
        "letter-封 letter-信 .-。", "read~了 a~本 and~还 wrote~了#2 a#2~封"),
    "cause: so -> 所以, time in the first clause": (
        {"chain": [{"type": "cop_adj", "adj": "hungry", "tense": "d", "subj": _p("i"), "time": "this_morning"}, "so",
                   {"type": "act", "v": "go", "tense": "d", "subj": _p("i"), "dest": "restaurant"}]},
        "i was hungry this morning , so i went to the restaurant .", "我 今天 早上 很 饿 ， 所以 我 去 了 饭馆 。",
        "i-我 this-今天 morning-早上 hungry-饿 ,-， so-所以 i#2-我#2 went-去 restaurant-饭馆 .-。",
        "was~很 went~了 to~去"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_construction_renders_with_its_gold_alignment(name):
    spec, en, zh, sure, possible = CASES[name]
    pair = Pair(*render(spec))
    assert " ".join(pair.src) == en
    assert " ".join(pair.tgt) == zh
    assert pair.sure == _links(pair, sure, "-")
    assert pair.possible - pair.sure == _links(pair, possible, "~")


@pytest.mark.parametrize("name", list(CASES))
def test_construction_uses_only_vocabulary_words(name):
    src_vocab, tgt_vocab = build_vocabs()
    pair = Pair(*render(CASES[name][0]))
    assert all(t in src_vocab for t in pair.src) and all(t in tgt_vocab for t in pair.tgt)


def test_exclamation_mark_reads_as_full_stop():
    assert tokenize_en("I like tea!") == ["i", "like", "tea", "."]
    assert tokenize_en("我喜欢茶！")[-1] == "."


def test_in_vocabulary_input_the_grammar_never_makes_is_encoded_whole():
    src_vocab, _ = build_vocabs()
    text = "apples and tea and school and my brother ."
    ids = encode_sentence(text, src_vocab)
    assert src_vocab.decode(ids) == tokenize_en(text)  # nothing dropped, nothing truncated


def test_suggestions_prefer_the_guessed_word_class_then_edit_distance():
    src_vocab, _ = build_vocabs()
    assert src_vocab.suggestions("runing")[0] == "running"  # -ing: a verb first
    assert src_vocab.suggestions("techer")[0] == "teacher"  # distance 1 beats distance 2
    assert src_vocab.suggestions("hapy")[0] == "happy"


def test_unknown_word_error_lists_no_punctuation_among_examples():
    src_vocab, _ = build_vocabs()
    msg = str(src_vocab.unknown_error(["xylophone"]))
    examples = msg.split("例如 (e.g.)")[1]
    assert not any(p in examples.replace("…", "") for p in (" ,", " .", "?", "'s"))
    assert "i, you, like" in examples
