"""Reliability: hostile input to translate() and to the explorer, and reproducible training.

Every hostile input gives a result or a ValueError/TypeError whose message is in Chinese, within a few
seconds; the explorer shows a message and keeps working afterwards.
"""

import re
import time

import pytest
import torch

import helpers
from helpers.corpus import load_corpus
from helpers.train import evaluate_bleu, make_model, train
from helpers.widgets import AttentionExplorer

HOSTILE_TEXT = {
    "empty": "",
    "whitespace": "   \t\n ",
    "punctuation only": "?!.,;",
    "chinese": "我是一名学生。",
    "emoji": "i am a student 😀 .",
    "control characters": "i am\x00 a\x07 student\x1b[31m .",
    "html": "<script>alert('x')</script> i am a student .",
    "numbers": "3 4 5 1234567890",
    "mixed case": "I Am A StUdEnT .",
    "thousands of words": "i am a student . " * 1000,
    "one unknown word": "i am a zzyzx .",
    "right to left text": "\u202e i am a student .",
}
NOT_STRINGS = {"none": None, "int": 42, "list": ["i", "am"], "bytes": b"i am a student ."}
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def model():
    return helpers.load_pretrained("luong-general")


@pytest.mark.parametrize("text", HOSTILE_TEXT.values(), ids=HOSTILE_TEXT.keys())
def test_translate_gives_a_result_or_a_chinese_value_error_quickly(model, text):
    start = time.perf_counter()
    try:
        result = helpers.translate(model, text)
    except ValueError as error:
        assert CJK.search(str(error)), str(error)
    else:
        assert isinstance(result.text, str)
        assert result.attention is not None
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize("value", NOT_STRINGS.values(), ids=NOT_STRINGS.keys())
def test_translate_refuses_non_strings_with_a_message(model, value):
    with pytest.raises((ValueError, TypeError)) as info:
        helpers.translate(model, value)
    assert CJK.search(str(info.value))


def test_mixed_case_translates_like_lower_case(model):
    assert helpers.translate(model, "I Am A StUdEnT .").text == helpers.translate(model, "i am a student .").text


@pytest.fixture(scope="module")
def explorer():
    return AttentionExplorer()


@pytest.mark.parametrize("text", HOSTILE_TEXT.values(), ids=HOSTILE_TEXT.keys())
def test_explorer_survives_hostile_input_and_keeps_working(explorer, text):
    explorer.sentence.value = "tom ate an apple yesterday ."
    good_png = bytes(explorer.image.value)
    start = time.perf_counter()
    explorer.sentence.value = text  # must not raise into the notebook
    assert time.perf_counter() - start < 5
    explorer.sentence.value = "i am a student ."
    assert bytes(explorer.image.value) != good_png
    assert "学生" in explorer.readout.value or "student" in explorer.readout.value


def test_explorer_explains_unknown_words(explorer):
    explorer.sentence.value = "i am a zzyzx ."
    assert "zzyzx" in explorer.message.value


def test_two_training_runs_with_one_seed_give_identical_histories_and_metrics():
    pairs, valid = load_corpus("train")[:256], load_corpus("valid")[:24]
    runs = []
    for _ in range(2):
        model = make_model("luong-general", seed=3, hidden_size=32, emb_size=32)
        history = train(model, pairs, valid, steps=12, batch_size=32, seed=3, eval_every=6, progress=False,
                        patience=None)
        runs.append((history.step_loss, history.val_bleu, evaluate_bleu(model, valid),
                     [p.detach().clone() for p in model.parameters()]))
    assert runs[0][:3] == runs[1][:3]
    assert all(torch.equal(a, b) for a, b in zip(runs[0][3], runs[1][3]))
