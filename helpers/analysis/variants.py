"""The attention variants side by side on the same sentences (notebook 07a, §4).

``variant_table(models, pairs)`` decodes every pair greedily with each model and measures: exact
match (any reference), corpus AER over the exactly translated pairs, and how soft the attention is:
the mean of each row's largest weight (mean max-α, 1 = one-hot) and the mean row entropy (nats).
``diagonal_aer(pairs)`` is the content-blind baseline: target word t aligned to source word
⌈t·S/T⌉ (both from 1).
"""

from __future__ import annotations

import numpy as np

from helpers.decode import decode_sentences
from helpers.metrics import attention_to_links, corpus_aer, exact_match


def diagonal(n_tgt: int, n_src: int) -> np.ndarray:
    """A one-hot [T, S] matrix: row j (from 0) on column ⌈(j+1)·S/T⌉ − 1."""
    att = np.zeros((n_tgt, n_src))
    for j in range(n_tgt):
        att[j, min(n_src - 1, int(np.ceil((j + 1) * n_src / n_tgt)) - 1)] = 1.0
    return att


def diagonal_aer(pairs) -> float:
    links = [attention_to_links(diagonal(len(p.tgt), len(p.src)), n_src=len(p.src), n_tgt=len(p.tgt)) for p in pairs]
    return corpus_aer(links, [p.sure for p in pairs], [p.possible for p in pairs])


def variant_row(model, pairs) -> dict:
    """exact, aer, max_alpha, entropy of one model on ``pairs`` (see the module docstring)."""
    r = decode_sentences(model, [model.src_vocab.encode(p.src) for p in pairs])
    outs = [model.tgt_vocab.decode(ids) for ids in r.tokens]
    ok = [k for k, p in enumerate(pairs) if outs[k] == list(p.tgt)]
    grids = [r.attention[k][: len(pairs[k].tgt), : len(pairs[k].src)] for k in ok]  # [T, S] each
    if not grids:  # nothing translated exactly: no rows to measure
        return {"exact": exact_match(outs, [p.references for p in pairs]), "aer": float("nan"),
                "max_alpha": float("nan"), "entropy": float("nan")}
    peaks = np.concatenate([g.max(axis=1) for g in grids])
    entropy = np.concatenate([-(g * np.log(np.clip(g, 1e-12, None))).sum(axis=1) for g in grids])
    links = [attention_to_links(r.attention[k], n_src=len(pairs[k].src), n_tgt=len(pairs[k].tgt)) for k in ok]
    return {"exact": exact_match(outs, [p.references for p in pairs]),
            "aer": corpus_aer(links, [pairs[k].sure for k in ok], [pairs[k].possible for k in ok]),
            "max_alpha": float(peaks.mean()), "entropy": float(entropy.mean())}


def variant_table(models: dict, pairs) -> tuple[dict, float]:
    """({name: variant_row}, diagonal baseline AER)."""
    return {name: variant_row(m, pairs) for name, m in models.items()}, diagonal_aer(pairs)
