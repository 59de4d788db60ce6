"""helpers.extras.padding: the mask and the packing measured one at a time (notebook 05b, extra 1)."""

import torch

from helpers.corpus import load_corpus
from helpers.extras.padding import COMBINATIONS, greedy_texts, padding_changes
from helpers.train import make_model


def test_the_right_way_differs_from_itself_nowhere_and_none_ignores_the_mask():
    test = load_corpus("test")
    shorts = [p for p in test if len(p.src) <= 6][:6]
    longest = max(test[:200], key=lambda p: len(p.src))
    changed, n_pad = padding_changes(make_model("none", seed=0).eval(), shorts, longest)
    assert list(changed) == list(COMBINATIONS)
    assert changed["打包 + 掩码"] == 0
    assert changed["打包，不加掩码"] == 0  # no attention: a mask cannot change anything
    assert n_pad == len(longest.src) - min(len(p.src) for p in shorts)


def test_greedy_texts_gives_one_string_per_sentence():
    model = make_model("luong-general", seed=0).eval()
    src = torch.tensor([model.src_vocab.encode(["i", "am", "a", "student", "."])])
    texts = greedy_texts(model, model.start(src, torch.tensor([5])), steps=3)
    assert len(texts) == 1 and isinstance(texts[0], str) and len(texts[0]) <= 3 * 5
