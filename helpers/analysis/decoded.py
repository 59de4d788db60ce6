"""One model's greedy outputs on a list of pairs, scored against the references (notebook 07b, §1).

``decode_split(model, pairs)`` decodes every pair in one batch (``helpers.decode.decode_sentences``)
and returns a :class:`DecodedSplit`: the output tokens and attention of each pair, which outputs equal
the reference (``same``), and the per-sentence AER of those (``scores``: index -> AER; the gold links
belong to the reference, so a sentence whose output differs gets none). ``aer_by_length(buckets)``
is the corpus AER of the exactly translated pairs, grouped by English length.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from helpers.decode import decode_sentences
from helpers.metrics import aer, attention_to_links, corpus_aer

LENGTH_BUCKETS = ((3, 10), (11, 20), (21, 30), (31, 40))  # the training range of the shipped models


@dataclass
class DecodedSplit:
    pairs: list
    outputs: list[list[str]]  # the greedy output tokens of each pair
    attention: list[np.ndarray]  # [T+1, S] each: one row per output token and the <eos> step
    same: list[bool]  # output == the pair's reference (tgt)
    scores: dict[int, float]  # pair index -> AER, exactly translated pairs only

    def aer_by_length(self, buckets=LENGTH_BUCKETS) -> dict[str, tuple[int, float]]:
        """"lo–hi" -> (number of exact pairs, their corpus AER), for every bucket with at least one."""
        out = {}
        for lo, hi in buckets:
            ks = [k for k in self.scores if lo <= len(self.pairs[k].src) <= hi]
            if ks:
                links = [attention_to_links(self.attention[k], n_src=len(self.pairs[k].src),
                                            n_tgt=len(self.pairs[k].tgt)) for k in ks]
                out[f"{lo}–{hi}"] = (len(ks), corpus_aer(links, [self.pairs[k].sure for k in ks],
                                                          [self.pairs[k].possible for k in ks]))
        return out


def decode_split(model, pairs) -> DecodedSplit:
    """Greedy-decode ``pairs`` with ``model`` and score the exact translations (see the module docstring)."""
    pairs = list(pairs)
    res = decode_sentences(model, [model.src_vocab.encode(p.src) for p in pairs])
    outputs = [model.tgt_vocab.decode(ids) for ids in res.tokens]
    same = [out == list(p.tgt) for out, p in zip(outputs, pairs)]
    scores = {k: aer(res.attention[k], p.sure, p.possible, n_src=len(p.src), n_tgt=len(p.tgt))
              for k, p in enumerate(pairs) if same[k]}
    return DecodedSplit(pairs, outputs, list(res.attention), same, scores)
