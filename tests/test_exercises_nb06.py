"""Exercises of notebook 06 (corpus and model comparison): solutions pass, mistakes are named."""

from itertools import combinations

import pytest
from exercise_support import fresh_hints  # noqa: F401 - autouse fixture

from helpers.exercises import EXERCISES, check


def test_crossing_share_as_percentage_is_diagnosed():
    value = float(EXERCISES["nb06_crossing_share"].solution) * 100
    result = check("nb06_crossing_share", value)
    assert not result.passed and "百分数" in result.message


def test_crossing_share_is_the_short_test_pairs_counted_by_hand():
    from helpers.corpus import has_crossing, load_corpus

    short = [p for p in load_corpus("test") if len(p.src) <= 5]
    assert EXERCISES["nb06_crossing_share"].solution == sum(has_crossing(p) for p in short) / len(short)
    assert check("nb06_crossing_share", EXERCISES["nb06_crossing_share"].solution + 0.08).passed


def test_crossing_reason_is_decided_by_reasoning():
    assert check("nb06_crossing_share_why", "A").passed
    result_b, result_c = check("nb06_crossing_share_why", "B"), check("nb06_crossing_share_why", "C")
    assert not result_b.passed and "能换位置的成分越少" in result_b.message
    assert not result_c.passed and "和句子长短有关" in result_c.message


def test_best_aer_on_long_and_its_reason_by_hand():
    from helpers.exercises.nb06 import split_aers

    long = split_aers("long")
    assert set(long) == {"bahdanau", "luong-dot", "luong-general", "luong-concat"} and all(0 < v < 1 for v in long.values())
    worst = max(long, key=long.get)
    assert EXERCISES["nb06_best_aer"].solution == worst
    # the gap asked about is wide enough to reason about: the worst model is clearly behind on test as well
    test = split_aers("test")
    assert max(test, key=test.get) == worst
    assert long[worst] - sorted(long.values())[-2] > 0.05


def test_best_aer_reason_is_decided_by_reasoning_not_by_the_outcome():
    assert check("nb06_best_aer_why", "A").passed
    result_b, result_c = check("nb06_best_aer_why", "B"), check("nb06_best_aer_why", "C")
    assert not result_b.passed and "教师强制" in result_b.message
    assert not result_c.passed and "没有理由保持不变" in result_c.message


def test_links_cross_solution_on_hand_cases():
    solve = EXERCISES["nb06_has_crossing"].solution
    assert solve({(0, 1), (1, 0)}) is True
    assert solve({(0, 0), (0, 1)}) is False


def test_links_cross_counting_shared_endpoints_is_diagnosed():
    def non_strict(links):
        return any(i1 <= i2 and j1 > j2 for (i1, j1), (i2, j2) in combinations(links, 2)) or \
            any(i2 <= i1 and j2 > j1 for (i1, j1), (i2, j2) in combinations(links, 2))

    result = check("nb06_has_crossing", non_strict)
    assert not result.passed and "一对多" in result.message


def test_links_cross_checking_neighbours_only_is_diagnosed():
    def neighbours(links):
        links = list(links)  # not sorted: neighbours in the given order only
        return any(a[0] < b[0] and a[1] > b[1] for a, b in zip(links, links[1:]))

    result = check("nb06_has_crossing", neighbours)
    assert not result.passed and "每一对" in result.message


def test_links_cross_returning_a_count_is_diagnosed():
    result = check("nb06_has_crossing", lambda links: len(links))
    assert not result.passed and "bool" in result.message


@pytest.mark.parametrize("wrong,phrase", [("none", "没有注意力矩阵"), ("rnnencdec", "同一个摘要向量 c"),
                                         ("transformer", "没有这个模型")])
def test_best_aer_wrong_answer_names_the_mistake(wrong, phrase):
    result = check("nb06_best_aer", wrong)
    assert not result.passed and phrase in result.message

