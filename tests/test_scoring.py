"""The learner-sentence scorer and the error counts of helpers.tools.scoring, on hand-made cases."""

import pytest

from helpers.decode import translate
from helpers.tools.scoring import clauses, edit_distance, error_counts, learner_scores, score_learner
from helpers.train import make_model


@pytest.mark.parametrize("a, b, distance", [
    ("我是学生。", "我是一名学生。", 2),      # two insertions
    ("他喜欢咖啡。", "他不喜欢喝咖啡。", 2),  # 不 and 喝 missing
    ("她喜欢茶。", "他不喜欢咖啡。", 4),      # 他 -> 她, + 不, 茶 -> 咖 + 啡
    ("", "我。", 2),
    ("猫", "猫", 0),
])
def test_edit_distance_by_hand(a, b, distance):
    assert edit_distance(a, b) == distance == edit_distance(b, a)


def test_an_output_equal_to_a_reference_up_to_spaces_is_exact():
    assert score_learner("我 是 一 名 学生 。", ["我是学生。", "我是一名学生。"]) == \
        {"exact": True, "within_two": True, "distance": 0}


def test_the_nearest_reference_counts():
    # distance 3 to the first reference (一名 + 。 missing), 1 to the second (。 missing)
    assert score_learner("我是学生", ["我是一名学生。", "我是学生。"]) == {"exact": False, "within_two": True, "distance": 1}


def test_three_characters_off_is_not_within_two():
    assert score_learner("我是一个好学生", ["我是学生。"])["within_two"] is False  # 一 个 好 extra, 。 missing: 4


def test_an_untranslated_sentence_is_wrong():
    assert score_learner(None, ["我是学生。"]) == {"exact": False, "within_two": False, "distance": None}


def test_learner_scores_refuse_only_input_without_english_and_list_it():
    model = make_model("luong-dot", seed=3, emb_size=8, hidden_size=16)
    out = translate(model, "i am a student .").text  # whatever this untrained model says
    long_en = "i am a student , and i am a student , and i am a student , and i am a student ."  # 24 tokens
    long_out = translate(model, long_en).text
    sentences = [{"en": "i am a student .", "refs": [out]},                 # exact by construction
                 {"en": "i am a student .", "refs": [out + "猫猫猫"]},       # three characters off
                 {"en": "你好", "refs": ["你好。"]},                          # no English word: refused
                 {"en": long_en, "refs": [long_out + "猫"]}]                 # long, one character off
    r = learner_scores(model, sentences)
    assert (r["n"], r["exact"], r["within_two"]) == (4, 1 / 4, 2 / 4)
    assert (r["n_long"], r["long_exact"], r["long_within_two"]) == (1, 0.0, 1.0)
    assert r["unknown"] == [{"en": "你好", "words": ["你", "好"]}]
    assert r["outputs"] == [out, out, None, long_out]


def test_learner_scores_translate_a_sentence_with_an_unknown_word():
    model = make_model("luong-dot", seed=3, emb_size=8, hidden_size=16)
    out = translate(model, "the zyzzyva is a student").text  # read as "the <unk> is a student ."
    r = learner_scores(model, [{"en": "the zyzzyva is a student", "refs": [out]}])
    assert r["unknown"] == [] and r["outputs"] == [out] and r["exact"] == 1.0


def test_clauses_are_runs_between_clause_marks():
    assert clauses("我 喜欢 茶 ， 但是 他 喜欢 咖啡 。".split()) == [("我", "喜欢", "茶"), ("但是", "他", "喜欢", "咖啡")]


def test_error_counts_by_hand():
    ref1 = "我 喜欢 茶 ， 但是 他 喜欢 咖啡 。".split()       # 2 clauses, 9 tokens
    ref2 = "他 喜欢 咖啡 。".split()                           # 1 clause
    hyp1 = "我 喜欢 茶 。".split()                             # 1 clause, 4 < 0.8 * 9 tokens, ended: early stop
    hyp2 = "他 喜欢 咖啡 ， 他 喜欢 咖啡 ， 他 喜欢 咖啡".split()  # the clause three times, no <eos>; "，" not in ref2
    hyp3 = "他 喜欢 茶 。".split()                             # 茶 not in ref2: invented
    counts = error_counts([hyp1, hyp2, hyp3], [ref1, ref2, ref2], [True, False, True])
    assert counts == {"n": 3, "fewer_clauses": 1, "repeated_clause": 1, "early_stop": 1, "no_eos": 1, "invented": 2}
