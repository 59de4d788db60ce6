"""helpers.analysis.shipped: numbers read from a hand-made metrics record, and the real one."""

import pytest

from helpers.analysis.shipped import shipped_summary


def _model(test, long, max_alpha=0.5, entropy=1.0, by=(0.5, 0.4, 0.3)):
    return {"test": {"char_bleu": test, "max_alpha": max_alpha, "entropy": entropy}, "long": {"char_bleu": long},
            "by_length": {b: {"char_bleu": v} for b, v in zip(("3-10", "31-40", "41-50"), by)},
            "learner": {"exact": 0.1, "within_two": 0.2, "long_exact": 0, "long_within_two": 0}}


def test_summary_of_a_hand_made_record():
    record = {"buckets": ["3-10", "31-40", "41-50"], "bucket_split": {"3-10": "test", "31-40": "test", "41-50": "long"},
              "models": {"none": _model(0.5, 0.2), "rnnencdec": _model(0.6, 0.3),
                         "bahdanau": _model(0.9, 0.7, 0.6, 1.2, (0.9, 0.95, 0.8)),
                         "luong-general": _model(0.95, 0.6, 0.9, 0.3, (0.92, 0.96, 0.7))}}
    s = shipped_summary(record)
    assert s.attention_models == ["bahdanau", "luong-general"]
    assert s.gap_test == pytest.approx({"bahdanau": 0.4, "luong-general": 0.45})
    assert s.gap == pytest.approx({"bahdanau": 0.5, "luong-general": 0.4})
    assert (s.inside, s.beyond) == (["3-10", "31-40"], ["41-50"])
    assert s.by_len["bahdanau"]["41-50"] == 0.8
    assert "最软 (softest): bahdanau | 最硬 (hardest): luong-general" in s.lines
    assert "训练长度以内 (3–40)，注意力模型最低的一格: 0.900" in s.lines[4]


def test_summary_of_the_shipped_metrics():
    from helpers.checkpoint import load_metrics

    s = shipped_summary(load_metrics())
    assert sorted(s.attention_models) == ["bahdanau", "luong-concat", "luong-dot", "luong-general"]
    assert len(s.lines) == 8
