"""helpers.analysis.by_hand: the line a notebook prints is the comparison's result."""

import numpy as np
import torch

from helpers.analysis.by_hand import compare, difference


def test_difference_is_the_largest_gap_and_where_it_is():
    gap, where, problem = difference([[0.0, 1.0], [2.0, 3.5]], np.array([[0.0, 1.0], [2.25, 3.0]]))
    assert (gap, where, problem) == (0.5, (1, 1), "")


def test_a_shape_mismatch_is_named_with_both_shapes():
    gap, where, problem = difference(torch.zeros(2, 3), torch.zeros(3, 2))
    assert gap == float("inf") and where is None
    assert "[2, 3]" in problem and "[3, 2]" in problem and "shape mismatch" in problem


def test_agreeing_values_print_one_line_each_and_return_true(capsys):
    assert compare("手算 vs helpers", [("α", [0.2, 0.8], torch.tensor([0.2, 0.8])), ("c", 1.0, 1.0 + 1e-7)])
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "手算 vs helpers：一致 ✔"
    assert out[1].startswith("  ✔ α：一致") and out[2].startswith("  ✔ c：一致")


def test_a_wrong_hand_computation_says_so_and_where(capsys):
    # a student forgot the softmax: scores [1, 0, 2] against the weights softmax([1, 0, 2])
    scores = np.array([1.0, 0.0, 2.0])
    weights = np.exp(scores) / np.exp(scores).sum()  # [0.2447, 0.0900, 0.6652]
    assert not compare("α", [("α", scores, weights)])
    out = capsys.readouterr().out
    assert "不一致 ✘" in out and "最大差 1.33" in out and "在位置 [2]" in out


def test_nan_in_the_hand_computation_disagrees(capsys):
    assert not compare("x", [("x", [float("nan"), 1.0], [0.5, 1.0])])
    assert "不一致" in capsys.readouterr().out
