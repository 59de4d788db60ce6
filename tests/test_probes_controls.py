"""The two controls of the peak-removal intervention (remove_second, remove_equal_mass), by hand and
on a tiny scripted model whose output word is the key its context vector points at."""

import torch

from helpers.analysis.probes import edit_attention, remove_equal_mass, remove_peak, remove_second
from helpers.attention import AttentionResult

W = torch.tensor([[0.4, 0.3, 0.2, 0.1], [0.1, 0.9, 0.0, 0.0]])
MASK = torch.tensor([[True, True, True, True], [True, True, False, False]])


def test_remove_second_by_hand():
    out = remove_second(W, MASK)
    assert torch.allclose(out, torch.tensor([[4 / 7, 0.0, 2 / 7, 1 / 7], [0.0, 1.0, 0.0, 0.0]]))


def test_remove_second_leaves_a_single_key_alone():
    row = torch.tensor([[1.0, 0.0]])
    assert torch.equal(remove_second(row, torch.tensor([[True, False]])), row)


def test_remove_equal_mass_by_hand():
    # row 1: peak 0.4, the others hold 0.6; 0.4 of it is removed (each kept at 1/3), then renormalised
    # row 2: peak 0.9 holds more than the others' 0.1: all of theirs goes, the row becomes one-hot
    out = remove_equal_mass(W, MASK)
    assert torch.allclose(out, torch.tensor([[2 / 3, 1 / 6, 1 / 9, 1 / 18], [0.0, 1.0, 0.0, 0.0]]))


class _Scripted(torch.nn.Module):
    """An attention whose weights are given; its values are one-hot keys, so c_t names a source word."""

    def __init__(self, weights):
        super().__init__()
        self.weights = weights

    def forward(self, query, keys, values=None, mask=None):
        return AttentionResult(self.weights @ keys[0], self.weights, torch.log(self.weights + 1e-9))


def _word(model):
    keys = torch.eye(4)[None].expand(2, 4, 4)  # [B, S, S]: key s is the s-th unit vector
    return model.decoder.attention(torch.zeros(2, 4), keys, mask=MASK).context.argmax(-1).tolist()


def test_on_a_scripted_model_only_removing_the_peak_changes_the_word():
    model = torch.nn.Module()
    model.decoder = torch.nn.Module()
    model.decoder.attention = _Scripted(torch.tensor([[0.4, 0.35, 0.15, 0.1], [0.1, 0.9, 0.0, 0.0]]))
    assert _word(model) == [0, 1]
    with edit_attention(model, remove_peak):
        assert _word(model) == [1, 0]  # the second key takes over
    for control in (remove_second, remove_equal_mass):
        with edit_attention(model, control):
            assert _word(model) == [0, 1]
    assert _word(model) == [0, 1]  # the edit is undone after the block
