"""Exercises of notebook 01 (BLEU by source length): solutions pass, mistakes are named."""


import pytest
from exercise_support import fresh_hints  # noqa: F401 - autouse fixture

from helpers.exercises import EXERCISES, check
from helpers.metrics import bleu


def test_read_bleu_accepts_a_prediction_within_tolerance():
    value = float(EXERCISES["nb01_read_bleu"].solution)
    assert check("nb01_read_bleu", round(value - 0.08, 3)).passed


def test_read_bleu_percentage_is_diagnosed():
    value = float(EXERCISES["nb01_read_bleu"].solution) * 100
    result = check("nb01_read_bleu", value)
    assert not result.passed and "百分制" in result.message


def test_first_clauses_are_cut_at_the_first_comma_by_hand():
    from helpers.corpus import load_corpus
    from helpers.exercises.nb01 import first_clauses

    first = next(p for p in load_corpus("long") if "," in p.src)
    src, ref = first_clauses(1)[0]
    k = list(first.src).index(",")
    assert src == list(first.src[:k]) + ["."] and ref == "".join(first.tgt[: list(first.tgt).index("，")]) + "。"


def test_read_bleu_is_the_corpus_bleu_of_none_on_the_first_clauses():
    import helpers
    from helpers.analysis.probes import first_clause_bleu, first_clauses

    model = helpers.load_pretrained("none")
    clauses = first_clauses(20)
    hyps = [helpers.translate(model, " ".join(src)).text for src, _ in clauses]
    direct = bleu(hyps, [ref for _, ref in clauses], level="char")
    assert first_clause_bleu("none", 20) == pytest.approx(direct, abs=1e-4)   # batched decoding = translate, one by one
    assert first_clause_bleu("none") == EXERCISES["nb01_read_bleu"].solution


def test_read_bleu_whole_long_score_is_diagnosed():
    from helpers.exercises.nb01 import long_bleu

    whole = long_bleu()
    if abs(whole - EXERCISES["nb01_read_bleu"].solution) <= 0.1:
        pytest.skip("the first clauses score like whole sentences: no trap to test")
    result = check("nb01_read_bleu", whole)
    assert not result.passed and "整句" in result.message


def test_read_bleu_reason_is_right_by_reasoning():
    assert check("nb01_read_bleu_why", "A").passed
    result = check("nb01_read_bleu_why", "B")
    assert not result.passed and "词语" in result.message
    result = check("nb01_read_bleu_why", "c")
    assert not result.passed and "截断" in result.message


def test_blind_s0_prediction_is_right_by_reasoning():
    assert check("nb01_blind_s0", "B").passed
    result = check("nb01_blind_s0", "C")
    assert not result.passed and "s_0" in result.message
    assert not check("nb01_blind_s0", "A").passed
    assert not check("nb01_blind_s0", "D").passed
