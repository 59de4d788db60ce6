"""Tests for helpers.metrics: BLEU against sacrebleu, exact match, AER against hand computations."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sacrebleu
import torch
from sacrebleu.metrics import BLEU

from helpers.metrics import (
    aer,
    attention_to_links,
    bleu,
    char_tokens,
    corpus_aer,
    exact_match,
    sentence_bleu,
)
from helpers.runtime.errors import EmptyInputError, HelpersError, ShapeError

# --- BLEU vs sacrebleu ------------------------------------------------------------------------

# (name, hypotheses, references): Chinese strings, compared at char level with tokenize="zh".
CHAR_CASES = [
    ("perfect", ["我是一名学生。", "你喜欢茶吗？"], ["我是一名学生。", "你喜欢茶吗？"]),
    ("partial", ["汤姆昨天吃了苹果。", "她每天看书。"], ["汤姆昨天吃了一个苹果。", "她每天在图书馆看书。"]),
    ("one_token_hyps", ["我", "。"], ["我是学生。", "你好。"]),
    ("one_token_perfect", ["我"], ["我"]),
    ("empty_hyp", [""], ["我是一名学生。"]),
    ("empty_and_full", ["", "我是一名学生。"], ["我是学生。", "我是一名学生。"]),
    ("hyp_longer", ["我是一名很好很好的学生。"], ["我是学生。"]),
    ("spaces_ignored", ["我 是 一名 学生 。"], ["我是一名学生。"]),
    ("punctuation", ["我 喜欢 茶 ， 但是 他 喜欢 咖啡 。"], ["我喜欢茶，但是他喜欢咖啡。"]),
    ("question", ["你 在 哪里 买 了 这本 书 ？"], ["你在哪里买了这本书？"]),
    ("no_overlap", ["猫狗"], ["我是学生。"]),
    ("mixed_corpus", ["我是学生。", "", "他", "我们今天没去学校。", "红色的车很多很多。"],
     ["我是一名学生。", "你好。", "他来了。", "我们今天没去学校。", "我哥哥有三辆红色的车。"]),
    ("ascii_runs", ["tom吃了2.5个apple, ok."], ["tom 吃 了 2.5 个 apple ok ."]),
]  # fmt: skip

WORD_CASES = [
    ("perfect", [["我", "是", "学生", "。"]], [["我", "是", "学生", "。"]]),
    ("partial", [["汤姆", "吃", "了", "苹果", "。"]], [["汤姆", "昨天", "吃", "了", "一个", "苹果", "。"]]),
    ("one_token", [["我"], ["是"]], [["我", "是"], ["是"]]),
    ("empty", [[], ["我", "是", "学生"]], [["你", "好"], ["我", "是", "学生"]]),
    ("longer", [["我", "是", "是", "一名", "好", "学生", "。"]], [["我", "是", "学生", "。"]]),
    ("english", [["the", "cat", "is", "black", "."]], [["the", "cat", "that", "i", "saw", "is", "black", "."]]),
]  # fmt: skip


def _sacre_corpus(hyps, refs, tokenize, **kw):
    return sacrebleu.corpus_bleu(hyps, [refs], tokenize=tokenize, **kw).score / 100


@pytest.mark.parametrize("name,hyps,refs", CHAR_CASES, ids=[c[0] for c in CHAR_CASES])
def test_char_bleu_matches_sacrebleu_zh(name, hyps, refs):
    assert bleu(hyps, refs, level="char") == pytest.approx(_sacre_corpus(hyps, refs, "zh"), abs=1e-4)


@pytest.mark.parametrize("name,hyps,refs", CHAR_CASES, ids=[c[0] for c in CHAR_CASES])
def test_char_bleu_without_smoothing_matches_sacrebleu(name, hyps, refs):
    expected = _sacre_corpus(hyps, refs, "zh", smooth_method="none")
    assert bleu(hyps, refs, level="char", smooth="none") == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("name,hyps,refs", WORD_CASES, ids=[c[0] for c in WORD_CASES])
def test_word_bleu_matches_sacrebleu_none_tokenizer(name, hyps, refs):
    expected = _sacre_corpus([" ".join(h) for h in hyps], [" ".join(r) for r in refs], "none")
    assert bleu(hyps, refs, level="word") == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("name,hyps,refs", CHAR_CASES, ids=[c[0] for c in CHAR_CASES])
def test_sentence_bleu_matches_sacrebleu_sentence_bleu(name, hyps, refs):
    for h, r in zip(hyps, refs):
        expected = sacrebleu.sentence_bleu(h, [r], tokenize="zh").score / 100
        assert sentence_bleu(h, r, level="char") == pytest.approx(expected, abs=1e-4)


def test_max_n_two_matches_sacrebleu():
    hyps, refs = ["我是学生", "他"], ["我是一名学生", "他来了"]
    expected = BLEU(tokenize="zh", max_ngram_order=2).corpus_score(hyps, [refs]).score / 100
    assert bleu(hyps, refs, max_n=2) == pytest.approx(expected, abs=1e-4)


def test_char_level_accepts_token_lists_like_strings():
    tokens = [["我", "是", "一名", "学生", "。"]]
    assert bleu(tokens, ["我是一名学生。"], level="char") == pytest.approx(1.0)


def test_hand_computed_bleu_of_a_short_sentence():
    # hyp 我是学生 vs ref 我是一名学生 (chars): p1=4/4, p2=2/3 (我是, 学生), p3=0/2 -> exp smoothing
    # 1/(2*2), p4=0/1 -> 1/(4*1); BP = exp(1 - 6/4).
    expected = math.exp(1 - 6 / 4) * (1 * (2 / 3) * (1 / 4) * (1 / 4)) ** 0.25
    assert bleu(["我是学生"], ["我是一名学生"]) == pytest.approx(expected, abs=1e-9)


def test_one_token_perfect_sentence_bleu_is_one():
    assert sentence_bleu("我", "我") == pytest.approx(1.0)


def test_empty_hypothesis_scores_zero_without_crash():
    assert bleu([""], ["我是学生。"]) == 0.0


def test_char_tokens_split_chinese_and_keep_ascii_words():
    assert char_tokens("我 是tom，ok.") == ["我", "是", "tom", "，", "ok", "."]


def test_bleu_mismatched_lengths_raise_helpers_error():
    with pytest.raises(HelpersError, match="mismatched lengths"):
        bleu(["我"], ["我", "你"])


def test_bleu_single_string_instead_of_list_raises():
    with pytest.raises(HelpersError, match="a list of sentences"):
        bleu("我是学生", "我是学生")


def test_bleu_wrong_item_type_raises():
    with pytest.raises(HelpersError, match="wrong type"):
        bleu([42], ["我"])


def test_bleu_unknown_level_raises():
    with pytest.raises(HelpersError, match="unknown level"):
        bleu(["我"], ["我"], level="byte")


def test_bleu_empty_corpus_raises_empty_input_error():
    with pytest.raises(EmptyInputError):
        bleu([], [])


# --- exact match ------------------------------------------------------------------------------


def test_exact_match_counts_share_of_identical_sentences():
    assert exact_match(["我是学生。", "你好", "他"], ["我是学生。", "你好。", "他"]) == pytest.approx(2 / 3)


def test_exact_match_ignores_whitespace_in_strings():
    assert exact_match(["我 是 学生 。"], [["我", "是", "学生", "。"]]) == 1.0


def test_exact_match_compares_token_lists_token_by_token():
    assert exact_match([["我是", "学生"]], [["我", "是学生"]]) == 0.0


def test_exact_match_mismatched_lengths_raise():
    with pytest.raises(HelpersError):
        exact_match(["a"], [])


# --- every reference (multi-reference BLEU, Papineni et al. 2002) -------------------------------
# Worked by hand, word level, max_n = 2, no smoothing:
#   hypothesis  a b c d            (length 4)
#   reference 1 a b x d e          (length 5)
#   reference 2 a y c d            (length 4)
# unigrams a b c d: a in both, b in ref 1, c in ref 2, d in both -> clipped 4 / 4
# bigrams ab bc cd: ab in ref 1, bc in neither, cd in ref 2   -> clipped 2 / 3
# closest reference length to 4 is 4 (ref 2) -> BP = 1;  BLEU = sqrt(4/4 * 2/3) = sqrt(2/3) = 0.816497
# Against reference 1 alone: p1 = 3/4 (a b d), p2 = 1/3 (ab), BP = exp(1 - 5/4) = 0.778801,
#   BLEU = 0.778801 * sqrt(1/4) = 0.389400
MULTI_HYP = ["a b c d"]
MULTI_REFS = [["a", "b", "x", "d", "e"], ["a", "y", "c", "d"]]


def test_two_references_clip_by_the_larger_count_and_use_the_closest_length():
    assert bleu(MULTI_HYP, [MULTI_REFS], level="word", max_n=2, smooth="none") == pytest.approx(math.sqrt(2 / 3))


def test_one_reference_of_the_two_scores_lower_by_hand():
    assert bleu(MULTI_HYP, [MULTI_REFS[0]], level="word", max_n=2, smooth="none") == pytest.approx(
        math.exp(-0.25) * 0.5)


def test_references_as_strings_with_spaces_are_several_references():
    assert bleu(MULTI_HYP, [["a b x d e", "a y c d"]], level="word", max_n=2, smooth="none") == pytest.approx(
        math.sqrt(2 / 3))


def test_a_tie_in_reference_length_takes_the_shorter_one():
    # lengths 3 and 5 are both 1 away from 4: the shorter (3) gives BP = 1; unigrams 4/4, bigrams ab bc cd 3/3
    assert bleu(MULTI_HYP, [[["a", "b", "c"], ["a", "b", "c", "d", "e"]]], level="word", max_n=2,
                smooth="none") == pytest.approx(1.0)


def test_char_bleu_with_chinese_sentence_references():
    # 我是学生。 equals the second reference exactly
    assert bleu(["我是学生。"], [["我是一名学生。", "我是学生。"]], level="char") == pytest.approx(1.0)


def test_multi_reference_bleu_matches_sacrebleu_with_two_reference_streams():
    hyps = ["我是学生。", "他昨天去了公园。"]
    refs = [["我是一名学生。", "我是学生。"], ["他昨天去公园了。", "昨天他去了公园。"]]
    expected = BLEU(tokenize="zh").corpus_score(hyps, [[r[0] for r in refs], [r[1] for r in refs]]).score / 100
    assert bleu(hyps, refs, level="char") == pytest.approx(expected)


def test_exact_match_against_any_reference():
    refs = [["我是一名学生。", "我是学生。"], [("他", "去", "了", "。"), ("他", "去", "。")]]
    assert exact_match(["我是学生。", ["他", "走", "。"]], refs) == 0.5


def test_a_token_list_is_still_one_reference():
    assert exact_match([["我", "是", "学生", "。"]], [["我", "是", "学生", "。"]]) == 1.0
    assert bleu(["我是学生。"], [["我", "是", "学生", "。"]], level="char") == pytest.approx(1.0)


# --- attention -> links, AER ------------------------------------------------------------------

# attention[j, i]: 3 target rows, 4 source columns (the last column and row are <eos>).
ATT = np.array(
    [
        [0.7, 0.1, 0.1, 0.1],
        [0.1, 0.2, 0.6, 0.1],
        [0.2, 0.5, 0.2, 0.1],
    ]
)


def test_attention_to_links_takes_argmax_source_per_target():
    assert attention_to_links(ATT) == {(0, 0), (2, 1), (1, 2)}


def test_attention_to_links_accepts_torch_and_crops():
    # crop to 2 targets x 2 sources: row 1 becomes [0.1, 0.2] -> source 1
    assert attention_to_links(torch.tensor(ATT), n_src=2, n_tgt=2) == {(0, 0), (1, 1)}


def test_attention_to_links_rejects_3d_input():
    with pytest.raises(ShapeError):
        attention_to_links(np.zeros((2, 3, 4)))


def test_attention_to_links_rejects_nan():
    with pytest.raises(HelpersError, match="NaN"):
        attention_to_links(np.array([[np.nan, 1.0]]))


def test_aer_perfect_alignment_is_zero():
    assert aer({(0, 0), (1, 1)}, sure={(0, 0), (1, 1)}) == 0.0


def test_aer_hand_computed_with_sure_and_possible():
    # A = {(0,0),(1,1),(2,2)}, S = {(0,0),(2,1)}, P = S + {(1,1)}
    # |A∩S| = 1, |A∩P| = 2, |A| = 3, |S| = 2 -> AER = 1 - 3/5 = 0.4
    a = {(0, 0), (1, 1), (2, 2)}
    assert aer(a, sure={(0, 0), (2, 1)}, possible={(1, 1)}) == pytest.approx(0.4)


def test_aer_from_attention_matrix_hand_computed():
    # ATT -> A = {(0,0),(2,1),(1,2)}; S = {(0,0),(2,1),(3,2)}; P = S
    # |A∩S| = 2, |A∩P| = 2 -> AER = 1 - 4/6
    assert aer(ATT, sure={(0, 0), (2, 1), (3, 2)}) == pytest.approx(1 - 4 / 6)


def test_aer_possible_missing_sure_links_is_completed():
    # possible given without the sure link (0,0): P must still contain it -> AER 0
    assert aer({(0, 0)}, sure={(0, 0)}, possible={(1, 1)}) == 0.0


def test_aer_accepts_gold_object_with_sure_and_possible():
    class Gold:
        sure = {(0, 0)}
        possible = {(1, 1)}

    # A = {(0,0),(1,1)}: |A∩S|=1, |A∩P|=2, |A|=2, |S|=1 -> 1 - 3/3 = 0
    assert aer({(0, 0), (1, 1)}, Gold()) == 0.0


def test_aer_empty_prediction_and_empty_gold_is_zero():
    assert aer(set(), sure=set()) == 0.0


def test_aer_empty_prediction_with_gold_is_one():
    assert aer(set(), sure={(0, 0)}) == 1.0


def test_aer_rejects_malformed_links():
    with pytest.raises(HelpersError, match="a set of links"):
        aer({(0, 0, 1)}, sure={(0, 0)})


def test_corpus_aer_sums_counts_before_dividing():
    # sentence 1: A={(0,0)}, S={(0,0)} -> counts (1,1,1,1)
    # sentence 2: A={(0,1),(1,0)}, S={(0,0),(1,1)}, P=S+{(0,1)} -> (0,1,2,2)
    # micro: 1 - (1+2)/(3+3) = 0.5   (macro mean would be (0 + 0.75)/2 = 0.375)
    value = corpus_aer(
        [{(0, 0)}, {(0, 1), (1, 0)}],
        [{(0, 0)}, {(0, 0), (1, 1)}],
        [set(), {(0, 1)}],
    )
    assert value == pytest.approx(0.5)


def test_corpus_aer_mismatched_lengths_raise():
    with pytest.raises(HelpersError, match="mismatched lengths"):
        corpus_aer([set()], [set(), set()])


def test_random_corpora_match_sacrebleu():
    rng = np.random.default_rng(0)
    alphabet = list("我你他是的了学生猫狗。，？")
    for _ in range(30):
        n = int(rng.integers(1, 6))
        hyps = ["".join(rng.choice(alphabet, size=int(rng.integers(0, 9)))) for _ in range(n)]
        refs = ["".join(rng.choice(alphabet, size=int(rng.integers(1, 9)))) for _ in range(n)]
        assert bleu(hyps, refs) == pytest.approx(_sacre_corpus(hyps, refs, "zh"), abs=1e-4), (hyps, refs)
