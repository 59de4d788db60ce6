"""helpers.corpus.tour (notebook 06's corpus tour) on hand-made pairs and on the corpus."""

from types import SimpleNamespace

from helpers.corpus import load_corpus
from helpers.corpus import tour as tr


def _pair(src, tgt, sure, possible=(), phenomena=()):
    return SimpleNamespace(src=tuple(src), tgt=tuple(tgt), sure=set(sure), possible=set(possible), phenomena=set(phenomena))


# "i have ten red cards ." -> 我 有 十 张 红色 的 卡片 。 ; 张 and its noun 卡片 link to cards, 十 possibly too
CARDS = _pair("i have ten red cards .".split(), "我 有 十 张 红色 的 卡片 。".split(),
              sure={(0, 0), (1, 1), (2, 2), (4, 3), (3, 4), (4, 6), (5, 7)}, possible={(4, 2), (3, 5)})


def test_measure_word_links_find_numeral_measure_word_and_noun_past_an_adjective():
    mw = tr.measure_word_links(CARDS)
    assert (mw["numeral"], mw["word"], mw["noun"], mw["k"], mw["n"]) == ("十", "张", "卡片", 3, 6)
    assert mw["between"] == ["红色", "的"] and mw["word_sure"] == ["cards"] and mw["numeral_links"] == ["ten"]
    assert tr.links_of(CARDS, 2, "possible") == ["cards"]


def test_dropped_subjects_are_unlinked_pronouns_after_a_clause_boundary():
    story = _pair("he reads , he writes and he sleeps .".split(), "他 读书 ， 还 写字 ， 睡觉 。".split(),
                  sure={(0, 0), (1, 1), (2, 2), (4, 4), (7, 6), (8, 7)})
    assert tr.dropped_subjects(story) == [3, 6]  # the first he is linked (他), the two after , / and are not


def test_connective_stats_count_pairs_and_linked_english():
    pairs = [_pair(["so", "x"], ["所以", "x"], {(0, 0), (1, 1)}), _pair(["x"], ["x"], {(0, 0)})]
    share, english = tr.connective_stats(pairs, {"因果": ("所以",)})
    assert share == {"所以": 0.5} and english["所以"].most_common(1) == [("so", 1)]


def test_relative_verb_and_the_tour_on_the_training_set():
    assert tr.relative_verb(_pair("the doctor who helped me".split(), [], set())) == "helped"
    assert tr.relative_verb(_pair("a b".split(), [], set())) == ""
    tour = tr.tour_examples(load_corpus("train"))
    assert list(tour) == list(tr.TOUR)
    assert all(len(p.src) <= 9 and tr.TOUR[label](p) for label, p in tour.items())
