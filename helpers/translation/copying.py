"""Unknown words copied through attention (Jean et al. 2015, "On Using Very Large Target Vocabulary for Neural
Machine Translation"). Its predecessor, Luong et al. 2015b ("Addressing the Rare Word Problem in NMT"), used no
attention: the model learned positional unknown tokens (``<unk>`` with the relative position of its source
word), trained on the links of an external word aligner.

A source word outside the vocabulary is read as the unknown-word token ``<unk>``; the corpus teaches
the models to put ``<unk>`` in the target where that word goes (``helpers.corpus.augment``). When the
decoder emits ``<unk>`` at step j, ``copy_unknown`` writes in its place the source word with the
largest attention weight α_{j,i} at that step (the arg-max of row j of the attention matrix, the
same rule that turns attention into alignment links for AER). A model without attention (``none``)
has nothing to point with: its ``<unk>`` stays.

* ``CopiedWord(tgt_index, src_index, word)``: one replacement (0-based positions).
* ``copy_unknown(tgt_tokens, attention, src_words)`` -> (tokens, copied).
* ``join_chinese(tokens)``: the Chinese text; a space only between two Latin words ("New York").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from helpers.runtime.errors import ShapeError

UNK = "<unk>"
_LATIN_END = re.compile(r"[A-Za-z0-9]$")
_LATIN_START = re.compile(r"^[A-Za-z0-9]")

__all__ = ["CopiedWord", "UNK", "copy_unknown", "join_chinese"]


@dataclass(frozen=True)
class CopiedWord:
    """Target position ``tgt_index`` held ``<unk>``; ``word`` (source position ``src_index``) was written there."""

    tgt_index: int
    src_index: int
    word: str


def copy_unknown(tgt_tokens, attention, src_words, unk: str = UNK) -> tuple[list[str], list[CopiedWord]]:
    """Replace every ``unk`` in ``tgt_tokens`` by the source word it attends to most.

    tgt_tokens  the decoded target tokens (no <eos>)
    attention   [T, S'] with row j = α over the source while producing tgt_tokens[j] (T ≥ len(tgt_tokens);
                S' ≥ len(src_words): an extra <eos> column is ignored), or None (no attention: nothing copied)
    src_words   the source words to copy from, as the user typed them (e.g. "Xiaoming")
    Ties go to the smallest source position. Returns (new tokens, [CopiedWord, ...] in target order).
    """
    tokens = list(tgt_tokens)
    if attention is None or unk not in tokens or not len(src_words):
        return tokens, []
    arr = np.asarray(attention, dtype=float)
    if arr.ndim != 2 or arr.shape[0] < len(tokens) or arr.shape[1] < len(src_words):
        raise ShapeError(f"注意力矩阵的形状不对 (wrong attention shape)：需要至少 [{len(tokens)}, {len(src_words)}]，"
                         f"实际 (got) {list(arr.shape)}。请传入 translate(...).attention。")
    copied = []
    for j, tok in enumerate(tokens):
        if tok == unk:
            i = int(np.argmax(arr[j, : len(src_words)]))
            tokens[j] = src_words[i]
            copied.append(CopiedWord(j, i, src_words[i]))
    return tokens, copied


def join_chinese(tokens) -> str:
    """Chinese tokens joined without spaces; two neighbouring Latin words keep one space between them."""
    out = ""
    for tok in tokens:
        if out and _LATIN_END.search(out) and _LATIN_START.search(tok):
            out += " "
        out += tok
    return out
