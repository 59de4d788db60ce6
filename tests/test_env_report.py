"""Notebook 00's set-up table lines up by display width: a Chinese character takes two columns."""

from helpers.runtime.env import check_environment, display_width, format_report, pad_display


def test_display_width_counts_wide_characters_twice():
    assert display_width("torch") == 5
    assert display_width("设备 (device)") == 2 * 2 + 9  # 设备 = 4 columns, " (device)" = 9
    assert display_width("中文字体，") == 5 * 2  # the full-width comma is wide too
    assert display_width("√ ×") == 3  # the check marks are narrow


def test_pad_display_fills_to_the_column_count():
    assert pad_display("设备", 6) == "设备  "
    assert pad_display("abc", 6) == "abc   "
    assert pad_display("很长的名字", 4) == "很长的名字"  # never cut


def _detail_column(line: str, detail: str) -> int:
    return display_width(line[: line.rindex(detail)])


def test_every_detail_starts_in_the_same_display_column():
    report = [("Python", True, "3.11.7"), ("设备 (device)", True, "cpu"),
              ("预训练模型 (pretrained models)", False, "未找到：运行 make pretrained")]
    lines = format_report(report).splitlines()
    assert [line[0] for line in lines] == ["√", "√", "×"]
    columns = {_detail_column(line, detail) for line, (_, _, detail) in zip(lines, report)}
    # "√ " + the widest item (2 * 5 + 20 = 30 columns) + two spaces
    assert columns == {2 + 30 + 2}


def test_the_real_report_is_aligned():
    report = check_environment()
    lines = format_report(report).splitlines()
    assert len(lines) == len(report)
    assert len({_detail_column(line, detail) for line, (_, _, detail) in zip(lines, report)}) == 1


def test_use_notebook_threads_sets_torch_and_reads_nb_threads(monkeypatch):
    import pytest
    import torch

    from helpers.runtime.env import use_notebook_threads
    from helpers.runtime.errors import HelpersError

    before = torch.get_num_threads()
    try:
        monkeypatch.delenv("NB_THREADS", raising=False)
        assert use_notebook_threads() == 1 and torch.get_num_threads() == 1
        monkeypatch.setenv("NB_THREADS", " 2 ")
        assert use_notebook_threads() == 2 and torch.get_num_threads() == 2
        for bad in ("0", "-3", "two", "1.5"):
            monkeypatch.setenv("NB_THREADS", bad)
            with pytest.raises(HelpersError, match="NB_THREADS"):
                use_notebook_threads()
    finally:
        torch.set_num_threads(before)
