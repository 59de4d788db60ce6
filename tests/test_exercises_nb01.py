"""Exercises of notebook 01 (BLEU by source length): solutions pass, mistakes are named."""


import pytest
from exercise_support import fresh_hints  # noqa: F401 - autouse fixture

from helpers.exercises import EXERCISES, check
from helpers.metrics import bleu, sentence_bleu


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
    from helpers.probes import first_clause_bleu, first_clauses

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


def test_read_bleu_reason_follows_the_revealed_scores():
    from helpers.exercises.nb01 import first_clause_bleu, long_bleu

    diff = first_clause_bleu() - long_bleu()
    right = "A" if diff > 0.2 else ("C" if diff < -0.1 else "B")
    assert check("nb01_read_bleu_why", right).passed
    assert not check("nb01_read_bleu_why", next(k for k in "ABC" if k != right)).passed


def test_bleu_by_length_solution_on_a_hand_case():
    solve = EXERCISES["nb01_bleu_by_length"].solution
    out = solve([3, 30], ["我是学生。", "他"], ["我是学生。", "他是老师。"], [(1, 10), (11, 20), (21, 40)])
    assert out[0] == pytest.approx(1.0) and out[1] is None and out[2] < 0.5


def _grouped(score, inclusive=True):
    def answer(lengths, hyps, refs, buckets):
        out = []
        for lo, hi in buckets:
            idx = [k for k, n in enumerate(lengths) if (lo <= n <= hi if inclusive else lo <= n < hi)]
            out.append(score([hyps[k] for k in idx], [refs[k] for k in idx]) if idx else None)
        return out

    return answer


def test_bleu_by_length_mean_of_sentence_bleu_is_diagnosed():
    wrong = _grouped(lambda h, r: sum(sentence_bleu(a, b) for a, b in zip(h, r)) / len(h))
    result = check("nb01_bleu_by_length", wrong)
    assert not result.passed and "平均" in result.message


def test_bleu_by_length_word_level_is_diagnosed():
    result = check("nb01_bleu_by_length", _grouped(lambda h, r: bleu(h, r, level="word")))
    assert not result.passed and "词级" in result.message


def test_bleu_by_length_exclusive_upper_bound_is_diagnosed():
    result = check("nb01_bleu_by_length", _grouped(lambda h, r: bleu(h, r), inclusive=False))
    assert not result.passed and "inclusive" in result.message


def test_bleu_by_length_zero_for_empty_bucket_is_diagnosed():
    right = EXERCISES["nb01_bleu_by_length"].solution

    def zero(lengths, hyps, refs, buckets):
        return [0.0 if v is None else v for v in right(lengths, hyps, refs, buckets)]

    result = check("nb01_bleu_by_length", zero)
    assert not result.passed and "None" in result.message

