"""helpers.analysis.bottleneck (notebook 01's tables and lines), checked against hand-made inputs."""

from types import SimpleNamespace

import pytest
import torch

from helpers.analysis import bottleneck as bn


@pytest.mark.parametrize("config, text", [
    ({"variant": "none"}, "无注意力，只用 s_0（9.9 节）"),
    ({"variant": "rnnencdec"}, "无注意力，每一步都输入 c（RNNencdec）"),
    ({"variant": "bahdanau"}, "Bahdanau，加法打分"),
    ({"variant": "luong-general", "scaled_score": True, "input_feeding": True}, "Luong，general 打分，除以 √H，输入馈送"),
    ({"variant": "luong-concat", "scaled_score": False, "input_feeding": False}, "Luong，concat 打分"),
])
def test_decoder_text_names_decoder_and_score(config, text):
    assert bn.decoder_text(config) == text


def test_model_rows_read_the_model_and_count_parameters():
    model = torch.nn.Linear(3, 2)  # 3 * 2 weights + 2 biases = 8 parameters
    model.config = {"variant": "bahdanau", "bidirectional": True, "hidden_size": 16}
    model.meta = {"train": {"recipe": {"align_weight": 0, "steps": 5000}}}
    assert bn.model_rows({"b": model}) == [["b", "Bahdanau，加法打分", "双向 (bidirectional)", 16, 0, 5000, "8"]]


def test_buckets_split_at_the_training_length_and_print_with_signs():
    buckets = [(3, 10), (11, 20), (31, 40), (41, 50), (51, 60)]
    assert bn.split_buckets(buckets, 40) == ([0, 1, 2], [3, 4])
    assert bn.by_bucket(buckets[:2], [0.5, -0.25]) == "3-10: 0.50，11-20: -0.25"


def test_length_summary_picks_the_best_model_on_long_and_its_leads():
    buckets = [(3, 10), (11, 30), (31, 40), (41, 60)]
    scores = {"none": [0.5, 0.6, 0.4, 0.2], "rnnencdec": [0.6, 0.7, 0.5, 0.3],
              "a": [0.9, 0.9, 0.9, 0.7], "b": [0.9, 0.95, 0.9, 0.6]}
    record = {"models": {name: {"long": {"char_bleu": v[-1]}} for name, v in scores.items()}}
    s = bn.length_summary(record, buckets, scores, 40, ["a", "b"])
    assert (s.inside, s.beyond, s.best) == ([0, 1, 2], [3], "a")
    assert s.gap == pytest.approx([0.4, 0.3, 0.5, 0.5]) and s.gap_rnn == pytest.approx([0.3, 0.2, 0.4, 0.4])
    assert "注意力模型在 3-30 词各组的最低分：a 0.90，b 0.90" in s.lines
    assert s.lines[-1] == "整个 long 测试集：a 0.70，rnnencdec 0.30，none 0.20"


def test_english_keeps_the_possessive_on_its_word():
    assert bn.english(SimpleNamespace(src=("tom", "'s", "dog", "."))) == "tom's dog ."


def test_extra_words_counts_what_no_reference_has_paraphrases_included():
    refs = [("就", "去", "饭馆"), ("然后", "去", "饭馆")]
    assert bn.extra_words(["所以", "去", "饭馆", "所以"], refs) == ["所以"]  # once, though it occurs twice
    assert bn.extra_words(["然后", "去", "饭馆"], refs) == []


def test_repeated_clauses_are_those_repeated_beyond_the_reference():
    hyp = ["他", "很", "累", "，", "他", "很", "累", "，", "回", "家", "。"]
    assert bn.repeated_clauses(hyp, ["他", "很", "累", "，", "回", "家", "。"]) == {"他很累": 2}
    assert bn.repeated_clauses(hyp, ["他", "很", "累", "，", "他", "很", "累", "。"]) == {}  # the reference has it twice


def test_example_rows_translate_with_every_model_and_score_against_all_references():
    import helpers
    from helpers.corpus import load_corpus

    pair = load_corpus("test")[0]
    model = helpers.load_pretrained("luong-general")
    rows, outputs = bn.example_rows({"g": model}, {"g": "luong-general"}, pair)
    assert rows[0] == ["参考译文 (reference)", "".join(pair.tgt), "—", "—"]
    assert rows[1][0] == "luong-general" and rows[1][1] == helpers.translate(model, bn.english(pair)).text
    assert 0.0 <= rows[1][2] <= 1.0 and outputs["g"] == helpers.translate(model, bn.english(pair)).tgt_tokens
