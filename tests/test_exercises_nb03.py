"""Exercises of notebook 03 (Fig. 9-22): the solutions pass, typical mistakes get a specific message."""

import math

import numpy as np
import pytest

from helpers.exercises import EXERCISES, check, reset_hints


@pytest.fixture(autouse=True)
def _fresh_hints():
    reset_hints()
    yield
    reset_hints()


def test_peak_word_solution_passes():
    assert check("nb03_peak_word", EXERCISES["nb03_peak_word"].solution).passed


def test_peak_word_accepts_spaces_and_capitals():
    assert check("nb03_peak_word", " Student ").passed


@pytest.mark.parametrize("wrong,phrase", [("am", "是"), ("学生", "英文"), ("a", "一名"), ("book", "不是源句子")])
def test_peak_word_wrong_answer_names_the_mistake(wrong, phrase):
    result = check("nb03_peak_word", wrong)
    assert not result.passed and phrase in result.message


@pytest.mark.parametrize("hostile", [None, 3, math.nan, ["student"], b"student"])
def test_peak_word_never_raises_on_hostile_answers(hostile):
    assert not check("nb03_peak_word", hostile).passed


def test_peak_source_solution_passes():
    result = check("nb03_peak_source", EXERCISES["nb03_peak_source"].solution)
    assert result.passed, result.message


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


@pytest.mark.parametrize("hostile", [None, "abc", math.nan, lambda *a: 1 / 0, lambda: None])
def test_peak_source_never_raises_on_hostile_answers(hostile):
    result = check("nb03_peak_source", hostile)
    assert not result.passed and result.message


def test_second_failure_shows_more_hints():
    first = check("nb03_peak_word", "am").message
    second = check("nb03_peak_word", "am").message
    assert first.count("提示") < second.count("提示")
