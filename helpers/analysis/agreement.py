"""Attention against gradient × input (notebook 07b, §4).

For the first ``n`` pairs a model translates exactly, compare the peak of each attention row with the
peak of the same row of |∇_{e_s} ℓ_t · e_s| (``helpers.analysis.attribution``): the share of rows where both
point at the same source word, the share a random guess would reach (1/S per row), and the share of
rows whose peak is on a gold link, for each method. For one sentence, ``gradient_rows`` gives the
gradient × input matrix with each row scaled to sum to 1 (comparable with a row of α), and
``peak_disagreements`` the rows where its peak and the attention's differ.
"""

from __future__ import annotations

import numpy as np

from helpers.analysis.attribution import gradient_x_input, source_gradients


def agreement(model, pairs, n: int) -> dict:
    """{rows, same, chance, att_gold, grad_gold} over the first ``n`` pairs ``model`` translates exactly."""
    from helpers.decode import translate
    from helpers.widgets.explorer import sentence_text

    done = rows = same = att_gold = grad_gold = 0
    chance = 0.0
    for p in pairs:
        if done == n:
            break
        t = translate(model, sentence_text(p.src))
        if t.tgt_tokens != list(p.tgt):
            continue
        done += 1
        n_s, n_t = len(p.src), len(p.tgt)
        grads, emb = source_gradients(model, p.src, p.tgt)
        gxi = gradient_x_input(grads, emb).numpy()[:n_t]  # [T, S]
        a_peak, g_peak = t.attention[:n_t, :n_s].argmax(axis=1), gxi.argmax(axis=1)
        gold = set(p.sure) | set(p.possible)
        rows += n_t
        same += int((a_peak == g_peak).sum())
        att_gold += sum((int(i), j) in gold for j, i in enumerate(a_peak))
        grad_gold += sum((int(i), j) in gold for j, i in enumerate(g_peak))
        chance += n_t / n_s
    if rows == 0:  # no exact translation among ``pairs``
        return {"rows": 0, "same": float("nan"), "chance": float("nan"), "att_gold": float("nan"),
                "grad_gold": float("nan")}
    return {"rows": rows, "same": same / rows, "chance": chance / rows,
            "att_gold": att_gold / rows, "grad_gold": grad_gold / rows}


def gradient_rows(model, src_tokens, tgt_tokens) -> np.ndarray:
    """[T, S] gradient × input of each output word (``tgt_tokens``, the <eos> step left out), every row
    divided by its sum so that it reads like a row of attention weights."""
    grads, emb = source_gradients(model, src_tokens, tgt_tokens)
    gxi = gradient_x_input(grads, emb).numpy()[: len(tgt_tokens)]  # [T, S]
    return gxi / gxi.sum(axis=1, keepdims=True)


def peak_disagreements(attention, gxi, src_tokens, tgt_tokens) -> list[tuple[int, str, str, str]]:
    """The rows where the attention peak and the gradient × input peak differ:
    (t from 1, output word, source word at the attention peak, source word at the gradient peak)."""
    n_s = len(src_tokens)
    out = []
    for k, tok in enumerate(tgt_tokens):
        a, g = int(np.argmax(attention[k, :n_s])), int(np.argmax(gxi[k, :n_s]))
        if a != g:
            out.append((k + 1, tok, src_tokens[a], src_tokens[g]))
    return out
