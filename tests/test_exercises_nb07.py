"""Exercises of notebooks 07a–07c (helpers/exercises/nb07a.py, nb07b.py, nb07c.py): solutions pass,
typical mistakes are named, and every answer that follows from reasoning is checked against a hand computation."""

import math

import numpy as np
import pytest
from exercise_support import fresh_hints  # noqa: F401 - autouse fixture

import helpers
from helpers.exercises import EXERCISES, check, nb07a

IDS = {"nb07_aer_reading": "07a_heatmaps", "nb07_aer_reading_why": "07a_heatmaps", "nb07a_aer_floor": "07a_heatmaps",
       "nb07a_threshold_rule": "07a_heatmaps", "nb07_look_or_say": "07b_faithfulness",
       "nb07b_weak_control": "07b_faithfulness", "nb07c_word_order": "07c_to_transformer"}


@pytest.fixture(scope="module")
def model():
    return helpers.load_pretrained("luong-general")


def test_each_part_of_07_has_its_exercises_registered():
    assert {i: EXERCISES[i].notebook for i in IDS} == IDS
    assert {ex.notebook for i, ex in EXERCISES.items() if i.startswith("nb07")} == set(IDS.values())


def test_look_or_say_takes_the_intervention_that_delivers_the_word():
    assert check("nb07_look_or_say", "A").passed
    assert check("nb07_look_or_say", " a ").passed


@pytest.mark.parametrize("wrong, says", [("B", "分不开"), ("C", "整体"), ("D", "没有检验")])
def test_look_or_say_says_why_each_other_design_fails(wrong, says):
    result = check("nb07_look_or_say", wrong)
    assert not result.passed and says in result.message


def test_aer_reading_solution_is_the_corpus_aer_on_novel_by_hand(model):
    from helpers.corpus import load_corpus
    from helpers.metrics import attention_to_links, corpus_aer

    links, sures, possibles = [], [], []
    for p in load_corpus("novel")[:40]:
        t = helpers.translate(model, " ".join(p.src))
        if t.tgt_tokens == list(p.tgt):
            links.append(attention_to_links(t.attention, n_src=len(p.src), n_tgt=len(p.tgt)))
            sures.append(p.sure)
            possibles.append(p.possible)
    part = corpus_aer(links, sures, possibles)
    assert 0 <= part < 1 and 0 <= EXERCISES["nb07_aer_reading"].solution < 1
    assert EXERCISES["nb07_aer_reading"].solution == nb07a.split_aer("novel")


def test_aer_reading_accepts_a_prediction_within_tolerance():
    assert check("nb07_aer_reading", EXERCISES["nb07_aer_reading"].solution + 0.02).passed


def test_aer_reason_follows_the_revealed_numbers():
    from helpers.corpus import load_corpus

    novel_lengths = {len(p.src) for p in load_corpus("novel")}
    aers = nb07a.novel_vs_test()
    assert aers["novel"] == nb07a.split_aer("novel") and aers["test"] == nb07a.split_aer("test")
    assert aers["test_same_lengths"] == nb07a.split_aer("test", (min(novel_lengths), max(novel_lengths)))
    right = "A" if aers["novel"] <= aers["test_same_lengths"] else "B"  # the yardstick: test pairs as long as novel's
    assert check("nb07_aer_reading_why", right).passed
    assert not check("nb07_aer_reading_why", "C").passed  # the comparison is already at the same lengths
    assert EXERCISES["nb07_aer_reading_why"].solution == right


def test_aer_reading_rejects_a_percentage_with_a_range_message():
    value = 100 * EXERCISES["nb07_aer_reading"].solution + 5  # clearly a percentage, never the answer
    result = check("nb07_aer_reading", value)
    assert not result.passed and "0 到 1" in result.message


def test_aer_reading_recognises_one_minus_aer():
    solution = EXERCISES["nb07_aer_reading"].solution
    if abs((1 - solution) - solution) <= 2 * nb07a.AER_TOLERANCE:
        pytest.fail("AER close to 0.5: 1 - AER cannot be told apart, pick another sentence")
    result = check("nb07_aer_reading", 1 - solution)
    assert not result.passed and "1 − AER" in result.message


def test_aer_reading_rejects_a_wrong_number_with_direction():
    solution = EXERCISES["nb07_aer_reading"].solution
    wrong = solution + 0.3 if solution < 0.4 else solution - 0.3
    result = check("nb07_aer_reading", wrong)
    assert not result.passed and ("偏大" in result.message or "偏小" in result.message)


def test_aer_floor_reference_matches_hand_computations():
    # last night -> 昨晚: two sure links in row 0; one link per row reaches |A∩S| + |A∩P| = 2 * 3, |A| + |S| = 3 + 4
    assert nb07a.aer_floor(3, {(0, 0), (1, 0), (2, 1), (3, 2)}, set()) == pytest.approx(1 - 6 / 7)
    assert nb07a.aer_floor(2, {(0, 0), (1, 1)}, set()) == 0.0
    # a row with possible links only adds 1 to the numerator; a row with no link adds 0
    assert nb07a.aer_floor(3, {(0, 0)}, {(1, 1)}) == pytest.approx(1 - (2 + 1) / (3 + 1))


def test_aer_floor_agrees_with_aer_of_the_best_one_link_per_row_matrix():
    from helpers.metrics import aer

    sure, possible = {(0, 0), (1, 0), (2, 1), (4, 3)}, {(3, 2), (4, 2)}
    best = np.zeros((4, 5))
    for j, i in enumerate([0, 2, 3, 4]):  # a sure link where there is one, a possible one in row 2
        best[j, i] = 1.0
    assert aer(best, sure, possible) == pytest.approx(nb07a.aer_floor(4, sure, possible))


def _forgets_possible(n_tgt, sure, possible):
    return 1 - 2 * len({j for _, j in sure}) / (n_tgt + len(sure))


def _crashes(n_tgt, sure, possible):
    raise ZeroDivisionError("boom")


@pytest.mark.parametrize("wrong, says", [
    (lambda n_tgt, sure, possible: 0.0, "两个确定链接"),
    (_forgets_possible, "可能链接"),
    (lambda n_tgt, sure, possible: 0.5, "每一行能为分子"),
    (_crashes, "ZeroDivisionError"),
    (lambda n_tgt, sure, possible: "0.1", "一个数"),
    (lambda n_tgt, sure, possible: None, "尚未完成"),
])
def test_aer_floor_names_typical_mistakes(wrong, says):
    result = check("nb07a_aer_floor", wrong)
    assert not result.passed and says in result.message


def test_second_failure_shows_more_hints_than_the_first():
    first = check("nb07a_aer_floor", _forgets_possible).message
    second = check("nb07a_aer_floor", _forgets_possible).message
    assert second.count("提示") > first.count("提示")


def test_nan_answer_for_aer_reading_is_named():
    result = check("nb07_aer_reading", math.nan)
    assert "NaN" in result.message


# --------------------------------------------------------------------------- reasoning exercises of the split


def _aer(links, sure):
    """AER by its definition, with P = S (every gold link sure)."""
    return 1 - 2 * len(links & sure) / (len(links) + len(sure))


def test_threshold_rule_answer_matches_a_hand_computation():
    # three words, 昨晚 (row 0) has sure links last (0) and night (1); row 1 one-hot on gold
    sure = {(0, 0), (1, 0), (2, 1)}
    argmax = {(0, 0), (2, 1)}                   # row 0: last 0.55 wins
    threshold = {(0, 0), (1, 0), (2, 1)}        # row 0: night 0.40 >= 0.3 joins
    assert _aer(argmax, sure) == pytest.approx(1 - 4 / 5)
    assert _aer(threshold, sure) == 0.0 < _aer(argmax, sure)
    assert check("nb07a_threshold_rule", "A").passed
    assert check("nb07a_threshold_rule", "a").passed


@pytest.mark.parametrize("wrong, says", [("B", "arg-max 规则的性质"), ("C", "分子多 2"), ("D", "one-hot")])
def test_threshold_rule_says_why_each_other_option_fails(wrong, says):
    result = check("nb07a_threshold_rule", wrong)
    assert not result.passed and says in result.message


def test_weak_control_takes_the_equal_mass_argument():
    assert check("nb07b_weak_control", "A").passed
    for wrong in "BCD":
        assert not check("nb07b_weak_control", wrong).passed


def test_random_control_never_removes_the_peak():
    # option B of nb07b_weak_control is wrong because remove_random only draws among the other keys
    import torch

    from helpers.analysis.probes import remove_random

    weights = torch.tensor([[0.05, 0.9, 0.05]]).repeat(200, 1)  # [B, S], the peak at 1
    edited = remove_random(torch.Generator().manual_seed(0))(weights, None)
    assert torch.all(edited[:, 1] > 0.9)


def test_word_order_answer_holds_for_a_permutation():
    import torch

    from helpers.attention import Attention

    g = torch.Generator().manual_seed(3)
    X = torch.randn(5, 6, generator=g)
    W_Q, W_K, W_V = (torch.randn(6, 4, generator=g) for _ in range(3))

    def out(x):
        return Attention("scaled_dot")((x @ W_Q)[None], (x @ W_K)[None], (x @ W_V)[None]).context[0]

    assert torch.allclose(out(X.flip(0)), out(X).flip(0), atol=1e-6)
    assert check("nb07c_word_order", "A").passed
    result = check("nb07c_word_order", "B")
    assert not result.passed and "跟着换位置" in result.message
