"""Exercises of notebook 03 (Fig. 9-22): the solutions pass, typical mistakes get a specific message."""


import numpy as np
import pytest
from exercise_support import fresh_hints  # noqa: F401 - autouse fixture

from helpers.exercises import check


def test_peak_word_accepts_spaces_and_capitals():
    assert check("nb03_peak_word", " Student ").passed


@pytest.mark.parametrize("wrong,phrase", [("am", "是"), ("学生", "英文"), ("a", "量词“名”"), ("book", "不是源句子")])
def test_peak_word_wrong_answer_names_the_mistake(wrong, phrase):
    result = check("nb03_peak_word", wrong)
    assert not result.passed and phrase in result.message


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

