"""The Chinese evaluation tables that notebook 06 shows (helpers.tools.tables_zh)."""

from pathlib import Path

from helpers.tools.tables_zh import format_tables_zh

RECORD = {
    "buckets": ["3-10", "41-50"], "bucket_split": {"3-10": "test", "41-50": "long"},
    "models": {"bahdanau": {
        "test": {"char_bleu": 0.9123, "exact_match": 0.5, "aer": 0.2, "max_alpha": 0.7, "entropy": 0.81},
        "novel": {"char_bleu": 0.8, "exact_match": 0.25}, "long": {"char_bleu": 0.6},
        "params": 1234, "train": {"steps": 5000},
        "by_length": {"3-10": {"n": 200, "char_bleu": 0.95}, "41-50": {"n": 100, "char_bleu": 0.5}},
        "learner": {"n": 40, "n_long": 14, "exact": 0.25, "within_two": 0.5, "long_exact": 0.0,
                    "long_within_two": 0.1, "unknown": []},
        "errors": {"test": {"n": 1000, "fewer_clauses": 3, "repeated_clause": 1, "early_stop": 0, "no_eos": 2,
                            "invented": 4}},
    }},
}


def test_headings_are_chinese_and_no_english_table_titles():
    text = format_tables_zh(RECORD)
    assert "学习者自己写的句子" in text and "整个子集上的错误类型" in text and "按英文句长分桶" in text
    assert "A learner's own" not in text and "Errors over whole" not in text and "train s" not in text


def test_rows_carry_the_numbers():
    lines = format_tables_zh(RECORD).splitlines()
    assert "| bahdanau | 0.912 | 0.500 | 0.800 | 0.250 | 0.600 | 0.200 | 0.700 | 0.81 | 1234 | 5000 |" in lines
    assert "| （句数） | 200 | 100 |" in lines
    assert "| bahdanau | 25 % | 50 % | 0 % | 10 % | 0 |" in lines
    assert "| bahdanau | test | 1000 | 3 | 1 | 0 | 2 | 4 |" in lines


def test_error_headers_are_the_ones_notebook_01_uses():
    text = format_tables_zh(RECORD)
    header = "| 模型 | 子集 | 句数 | 分句比参考译文少 | 重复某个分句 | 提前结束 | 一直不结束 | 有参考译文里没有的词（含同义说法） |"
    assert header in text.splitlines()
    assert "编造的词数的上限" in text and "没有 <eos>" not in text
    nb01 = (Path(__file__).resolve().parent.parent / "notebooks" / "01_information_bottleneck.ipynb").read_text(encoding="utf-8")
    from helpers.tools.tables_zh import ERROR_KINDS_ZH
    assert all(label in nb01 for _, label in ERROR_KINDS_ZH)
