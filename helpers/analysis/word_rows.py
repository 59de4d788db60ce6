"""One attention row per output word: the row a reader looks at when a model writes a given word (03, 05a).

* ``word_row(translation, word)``  the weights over the real source words at the step that outputs ``word``
  (the first such step), or None when the translation does not contain it
* ``peak_rows(models, sentence, word)``  per model: its translation, the source word with the largest
  weight at that step and the weight (None, None when the model does not write ``word``)
* ``row_entropy(row)``  −Σ α log α in nats: 0 for one-hot, log S for uniform
* ``intervene(model, translation, word, edits)``  replace the weights of that one step (remove the peak,
  uniform, zero …) and read what the model now says
"""

from __future__ import annotations

import numpy as np

__all__ = ["intervene", "peak_rows", "row_entropy", "word_row"]


def word_row(translation, word: str) -> np.ndarray | None:
    """The attention row [S] of the first step that outputs ``word`` (time steps count from 1; this is row t-1)."""
    if word not in translation.tgt_tokens:
        return None
    k = translation.tgt_tokens.index(word)
    return np.asarray(translation.attention[k, : len(translation.src_tokens)])


def peak_rows(models: dict, sentence: str, word: str) -> list[list]:
    """Rows [name, translation (tokens joined by spaces), peak source word, its weight] for each model."""
    import helpers

    rows = []
    for name, model in models.items():
        tr = helpers.translate(model, sentence)
        row = word_row(tr, word)
        peak = None if row is None else tr.src_tokens[int(np.argmax(row))]
        rows.append([name, " ".join(tr.tgt_tokens), peak, None if row is None else float(row.max())])
    return rows


def row_entropy(row) -> float:
    """Entropy −Σ_s α_s log α_s of one attention row, in nats (zero weights count as 0)."""
    r = np.asarray(row, dtype=float)
    return float(-(r * np.log(np.clip(r, 1e-12, None))).sum())


def intervene(model, translation, word: str, edits: dict) -> dict:
    """For the step that outputs ``word`` in ``translation``: per edit (label -> a ``helpers.analysis.probes`` edit or
    None for "unchanged"), a tuple (the step's new weights [S], p(word), the arg-max word).

    The model's own output is replayed with teacher forcing and only that one step's weights are
    replaced (``helpers.analysis.probes.step_outputs``); the earlier steps are untouched."""
    from helpers.analysis.probes import step_outputs

    k = translation.tgt_tokens.index(word)
    out = {}
    for label, edit in edits.items():
        probs, weights = step_outputs(model, translation.src_tokens, translation.tgt_tokens, edit=edit, at=k + 1)
        out[label] = (weights[k], float(probs[k, model.tgt_vocab.stoi[word]]), model.tgt_vocab.itos[int(probs[k].argmax())])
    return out
