"""Exercises of notebook 03 (Fig. 9-22): the solutions pass, typical mistakes get a specific message."""


import numpy as np
import pytest
from exercise_support import fresh_hints  # noqa: F401 - autouse fixture

from helpers.exercises import EXERCISES, check


def test_uniform_student_is_what_the_intervention_gives_by_hand():
    import helpers
    from helpers.analysis.probes import step_outputs, uniform

    model = helpers.load_pretrained("luong-concat")
    t = helpers.translate(model, "i am a student .")
    k = t.tgt_tokens.index("学生")
    probs, weights = step_outputs(model, t.src_tokens, t.tgt_tokens, edit=uniform, at=k + 1)
    assert np.allclose(weights[k].numpy(), 1 / len(t.src_tokens))
    still = model.tgt_vocab.itos[int(probs[k].argmax())] == "学生"
    assert EXERCISES["nb03_uniform_student"].solution == ("是" if still else "否")


def test_uniform_student_reason_is_fixed_by_reasoning_not_by_the_outcome():
    # Uniform weights leave student 1/S of the context: only A concludes what that edit can show.
    assert EXERCISES["nb03_uniform_student_why"].solution == "A"
    assert check("nb03_uniform_student_why", "A").passed
    assert check("nb03_uniform_student_why", "a").passed


@pytest.mark.parametrize(("letter", "named"), [("B", "1/S"), ("C", "加权平均"), ("D", "五分之一")])
def test_uniform_student_wrong_reasons_say_what_is_wrong(letter, named):
    result = check("nb03_uniform_student_why", letter)
    assert not result.passed and named in result.message


@pytest.mark.parametrize("spelling", ["{}", " {} ", "{}。"])
def test_uniform_student_accepts_spellings_of_yes_and_no(spelling):
    answer = EXERCISES["nb03_uniform_student"].solution
    english = {"是": "yes", "否": "no"}[answer]
    assert check("nb03_uniform_student", spelling.format(answer)).passed
    assert check("nb03_uniform_student", english.upper()).passed


def test_uniform_student_wrong_and_odd_answers_are_named():
    other = {"是": "否", "否": "是"}[EXERCISES["nb03_uniform_student"].solution]
    assert "揭晓" in check("nb03_uniform_student", other).message
    assert "只填" in check("nb03_uniform_student", "maybe").message
    assert "一个字母" in check("nb03_uniform_student_why", "AB").message


def test_peak_source_reading_a_column_is_diagnosed():
    def by_column(tr, word):
        if word not in tr.tgt_tokens:
            return None
        j = tr.tgt_tokens.index(word)
        return tr.src_tokens[int(np.argmax(np.asarray(tr.attention)[: len(tr.tgt_tokens), j]))]

    result = check("nb03_peak_source", by_column)
    assert not result.passed and "一列" in result.message


def test_peak_source_keeping_the_eos_column_is_diagnosed():
    def with_eos(tr, word):
        if word not in tr.tgt_tokens:
            return None
        i = int(np.argmax(tr.attention[tr.tgt_tokens.index(word)]))
        return (tr.src_tokens + ["<eos>"])[i]

    result = check("nb03_peak_source", with_eos)
    assert not result.passed and "<eos>" in result.message


def test_peak_source_returning_an_index_is_diagnosed():
    def index(tr, word):
        return int(np.argmax(tr.attention[tr.tgt_tokens.index(word), : len(tr.src_tokens)]))

    result = check("nb03_peak_source", index)
    assert not result.passed and "下标" in result.message


def test_peak_source_missing_word_must_give_none():
    def never_none(tr, word):
        j = tr.tgt_tokens.index(word) if word in tr.tgt_tokens else 0
        return tr.src_tokens[int(np.argmax(tr.attention[j, : len(tr.src_tokens)]))]

    result = check("nb03_peak_source", never_none)
    assert not result.passed and "None" in result.message

