"""helpers.analysis: row checks, sentence selection, kinds of differences, the diagonal baseline;
every expected value worked out by hand on a four-word sentence."""

from types import SimpleNamespace

import numpy as np

from helpers.analysis.differences import difference_kind, dropped_source, plain_form
from helpers.analysis.rows import check_rows, crossings, miss_kind, mostly_right, moved_rows, row_peaks
from helpers.analysis.selection import most_crossing, pick, pick_gallery, wh_moves
from helpers.analysis.variants import diagonal

# tom ate yesterday .  ->  汤姆 昨天 吃 了 。   (昨天 crosses 吃)
PAIR = SimpleNamespace(src=["tom", "ate", "yesterday", "."], tgt=["汤姆", "昨天", "吃", "了", "。"],
                       sure={(0, 0), (2, 1), (1, 2), (3, 4)}, possible={(1, 3)}, phenomena=("time_front",))
ATT = np.array([[0.9, 0.05, 0.05, 0.0],   # 汤姆 -> tom        on gold
                [0.1, 0.6, 0.3, 0.0],     # 昨天 -> ate        next to yesterday
                [0.0, 1.0, 0.0, 0.0],     # 吃   -> ate        on gold
                [0.2, 0.7, 0.1, 0.0],     # 了   -> ate        a possible link
                [0.8, 0.0, 0.0, 0.2]])    # 。   -> tom        three words from .
T = SimpleNamespace(attention=ATT, src_tokens=PAIR.src, tgt_tokens=PAIR.tgt)


def test_row_peaks_by_hand():
    assert row_peaks(T, PAIR) == [(1, "汤姆", "tom", True), (2, "昨天", "ate", False), (3, "吃", "ate", True),
                                  (4, "了", "ate", True), (5, "。", "tom", False)]


def test_moved_rows_and_crossings():
    assert moved_rows(PAIR) == {1, 2}
    assert crossings(PAIR) == 1
    straight = SimpleNamespace(sure={(0, 0), (1, 1), (2, 2)})
    assert moved_rows(straight) == set() and crossings(straight) == 0
    reversed_three = SimpleNamespace(sure={(0, 2), (1, 1), (2, 0)})
    assert crossings(reversed_three) == 3


def test_miss_kinds():
    assert miss_kind(T, PAIR, 2) == "相邻"
    assert miss_kind(T, PAIR, 5) == "远"
    assert miss_kind(T, PAIR, 4) == "无确定链接"


def test_check_rows_summary():
    hits, rows, hit_moved, moved, kinds, text = check_rows(T, PAIR)
    assert (hits, rows, hit_moved, moved, kinds) == (3, 5, 1, 2, ["相邻", "远"])
    assert text.startswith("峰值在标准对齐上: 3/5 行，调序的行 1/2；没对上: t=2 昨天→ate〔相邻〕")
    assert mostly_right((3, 5, 1, 2, [], "")) and not mostly_right((3, 5, 0, 2, [], ""))
    assert mostly_right((5, 5, 0, 0, [], ""))


def test_wh_moves_and_pick():
    where = SimpleNamespace(src=["where", "are", "we", "?"], tgt=["我们", "在", "哪里", "？"],
                            sure={(2, 0), (1, 1), (0, 2), (3, 3)}, phenomena=("wh_question",))
    who = SimpleNamespace(src=["who", "cries", "?"], tgt=["谁", "哭", "？"], sure={(0, 0), (1, 1), (2, 2)},
                          phenomena=("wh_question",))
    assert wh_moves(where) and not wh_moves(who)
    exact = lambda p: p.tgt  # noqa: E731  a model that always translates exactly
    wrong = lambda p: ["错"]  # noqa: E731
    assert pick([who, where], "wh_question", exact) is where
    assert pick([PAIR, where], "time_front", wrong) is PAIR  # none right: the first candidate
    assert pick_gallery([PAIR, where], ["wh_question", "time_front"], exact) == {"wh_question": where,
                                                                                   "time_front": PAIR}


def test_most_crossing_orders_by_crossings_then_corpus_order():
    a = SimpleNamespace(src=list("abc"), sure={(0, 0), (1, 1), (2, 2)})
    b = SimpleNamespace(src=list("abc"), sure={(0, 2), (1, 1), (2, 0)})
    c = SimpleNamespace(src=list("abc"), sure={(0, 1), (1, 0), (2, 2)})
    d = SimpleNamespace(src=list("abcdefghijklm"), sure={(0, 2), (1, 1), (2, 0)})  # too long
    assert most_crossing([a, c, b, d], n=2) == [b, c]
    assert most_crossing([a, c, b, d], n=1, keep=lambda p: p is not b) == [c]


def test_difference_kinds():
    assert plain_form(["去", "了", "商店", "，", "所以", "买"]) == ["去", "商店", "就", "买"]
    assert difference_kind(["去", "了", "海边", "，", "游泳", "了"], ["去", "海边", "游泳", "了"]) == "另一种说法"
    assert difference_kind(["他", "去", "公园", "了", "。"], ["他", "去", "了", "公园", "。"]) == "另一种说法"
    assert difference_kind(["他", "去", "公园", "了", "。"], ["他", "去", "书店", "了", "。"]) == "换了一个词：书店 → 公园"
    assert difference_kind(["他们", "会", "打", "网球"], ["他们", "会", "一起", "打", "网球"]) == "漏译：一起"
    assert difference_kind(["我", "很", "累"], ["我", "累"]) == "多出：很"
    assert difference_kind(["我", "喝", "茶"], ["我", "喝", "水"]) == "换了一个词：水 → 茶"
    assert difference_kind(["他", "喝", "茶", "吗"], ["我", "喝", "水"]) == "多处不同"


def test_dropped_source():
    # they can play tennis together .  ->  他们 会 一起 打 网球 。 ; the output leaves out 一起
    pair = SimpleNamespace(src=["they", "can", "play", "tennis", "together", "."],
                           tgt=["他们", "会", "一起", "打", "网球", "。"],
                           sure={(0, 0), (1, 1), (4, 2), (2, 3), (3, 4), (5, 5)})
    assert dropped_source(["他们", "会", "打", "网球", "。"], pair) == [4]
    assert dropped_source(list(pair.tgt), pair) == []
    # PAIR: 汤姆 吃 了 。 leaves out 昨天 (yesterday, position 2)
    assert dropped_source(["汤姆", "吃", "了", "。"], PAIR) == [2]


def test_diagonal_baseline_by_hand():
    assert diagonal(2, 4).tolist() == [[0, 1, 0, 0], [0, 0, 0, 1]]
    assert diagonal(3, 2).tolist() == [[1, 0], [0, 1], [0, 1]]


def test_local_m_rows_keep_the_window_and_renormalise():
    from helpers.viz.gallery import gold_matrix, local_m_rows

    att = np.array([[0.1, 0.2, 0.3, 0.4],    # t = 1: window D = 1 is source 1..2 -> 0.1, 0.2
                    [0.0, 0.0, 0.0, 1.0],    # t = 2: window 1..3 holds no weight -> even over it
                    [0.5, 0.0, 0.0, 0.5]])   # t = 3: window 2..4 -> only 0.5 on source 4
    out = local_m_rows(att, 4, window=1)
    assert np.allclose(out, [[1 / 3, 2 / 3, 0, 0], [1 / 3, 1 / 3, 1 / 3, 0], [0, 0, 0, 1]])
    assert np.allclose(gold_matrix(PAIR), [[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]])


def test_far_misses_by_hand():
    from helpers.analysis.rows import far_misses

    assert far_misses(T, PAIR) == [(5, "。", [3], 0)]
