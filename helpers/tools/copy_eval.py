"""Does an unknown word land where it belongs? (issue "Models 4.0": unknown words copied by attention).

``copy_scores(model, pairs)`` takes corpus pairs that have a name or a noun with a one-to-one sure link
(``helpers.corpus.augment.copyable_words``), replaces that English word by a word outside the
vocabulary (``NEW_WORDS``, names a student would type), translates them all as ``translate`` does
(batched: <unk> in, the source word of largest attention copied out) and compares with the expected
output: the reference with the word's Chinese partner replaced by the new word.

* ``landed``: the new word is in the output at the position of its Chinese partner in the reference
  (the copy went where the reference puts the word);
* ``exact``: the whole output equals that expected output;
* ``copied``: the new word appears anywhere in the output.

Shares of ``n`` (the pairs that had a copyable word). A model without attention copies nothing (0.0).
"""

from __future__ import annotations

import random

NEW_WORDS = ("xiaoming", "lihua", "zhangwei", "wangfang", "chenjing", "liuyang", "zorblax", "quokka")

__all__ = ["NEW_WORDS", "copy_cases", "copy_scores"]


def copy_cases(pairs, seed: int = 0) -> list[tuple[list[str], list[str], int, str]]:
    """(source tokens, expected target tokens, expected target position, new word) per usable pair."""
    from helpers.corpus.augment import _partner, copyable_words

    rng = random.Random(f"helpers.tools.copy_eval/{seed}")
    cases = []
    for pair in pairs:
        words = copyable_words(pair)
        if not words:
            continue
        word, new = rng.choice(words), rng.choice(NEW_WORDS)
        positions = [i for i, w in enumerate(pair.src) if w == word]
        targets = {_partner(pair, i) for i in positions}
        src = [new if w == word else w for w in pair.src]
        tgt = [new if j in targets else t for j, t in enumerate(pair.tgt)]
        cases.append((src, tgt, min(targets), new))
    return cases


def copy_scores(model, pairs, seed: int = 0, limit: int | None = 400) -> dict:
    """``n``, ``landed``, ``exact``, ``copied`` (module docstring) over the first ``limit`` usable pairs."""
    from helpers.decode import decode_sentences, shipped_decoding
    from helpers.translation.copying import copy_unknown

    cases = copy_cases(pairs, seed)[:limit]
    if not cases:
        return {"n": 0, "landed": None, "exact": None, "copied": None}
    ids = [model.src_vocab.encode(src, unknown="unk") for src, _, _, _ in cases]
    result = decode_sentences(model, ids, **shipped_decoding(model))
    landed = exact = copied = 0
    for k, (src, tgt, j, new) in enumerate(cases):
        attention = None if result.attention is None else result.attention[k]
        out = copy_unknown(model.tgt_vocab.decode(result.tokens[k]), attention, src)[0]
        landed += j < len(out) and out[j] == new
        exact += out == tgt
        copied += new in out
    n = len(cases)
    return {"n": n, "landed": landed / n, "exact": exact / n, "copied": copied / n}
