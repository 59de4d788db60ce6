"""Interventions on the attention weights: does the model use what it attends to?

A heatmap shows where the weights α_t go; it does not show that the output depends on them (the
"attention is not explanation" debate: Jain & Wallace 2019, Wiegreffe & Pinter 2019; Vashishth et al.
2019 find seq2seq outputs far more sensitive to the weights than classifiers). The way to find out is
to change the weights at one step and watch the output word of that step.

* ``edit_attention(model, edit)``  a context manager: inside it, every attention call of the
  decoder passes its weights [B, S] through ``edit(weights, mask)``, and the context vector
  c_t = Σ_s α_ts h̄_s (Eq. 9-38) is recomputed from the edited weights
* the edits: ``remove_peak`` (the key with the largest weight gets 0, the rest renormalised),
  ``remove_random`` (the same for one other key, drawn at random: the control), ``remove_second``
  (the same for the key with the second-largest weight: a control that removes a key the model
  also looks at), ``remove_equal_mass`` (the peak's weight taken from the other keys instead: a
  control that removes as much weight as ``remove_peak`` without touching the peak), ``uniform``
  (every real key the same weight), ``shuffle`` (the weights permuted over the real keys),
  ``zero`` (all weights 0, so c_t = 0)
* ``step_outputs(model, src_tokens, tgt_tokens, edit=None, at=None)``  teacher forcing on a given
  target: the probabilities of every step, with ``edit`` applied at step ``at`` only (t from 1)
* ``peak_removal(model, pairs, edits)``  over a whole split: teacher forcing on the model's own
  greedy output, each edit applied to every step once, state for state as in the unedited run;
  the share of steps whose arg-max word changes, per edit

Teacher forcing on the model's own output makes "the word of step t" well defined with and without
the edit: the steps before t are exactly as in the unedited run.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field

import torch

from helpers.attention import AttentionResult
from helpers.metrics import bleu
from helpers.runtime.errors import HelpersError

Edit = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]  # (weights [B, S], mask [B, S]) -> weights [B, S]


def _real(weights: torch.Tensor, mask) -> torch.Tensor:
    return torch.ones_like(weights, dtype=torch.bool) if mask is None else mask.bool()


def _renormalise(weights: torch.Tensor, real: torch.Tensor) -> torch.Tensor:
    """Rows rescaled to sum to 1; a row left with no weight becomes uniform over its remaining real keys."""
    total = weights.sum(-1, keepdim=True)  # [B, 1]
    flat = real.to(weights.dtype) / real.sum(-1, keepdim=True).clamp(min=1)  # [B, S]
    return torch.where(total > 1e-12, weights / total.clamp(min=1e-12), flat)


def remove_peak(weights: torch.Tensor, mask=None) -> torch.Tensor:
    """The key with the largest weight gets 0; the other keys share its weight in proportion."""
    peak = weights.argmax(-1, keepdim=True)  # [B, 1]
    real = _real(weights, mask).scatter(-1, peak, False)
    return _renormalise(weights.scatter(-1, peak, 0.0), real)


def remove_random(generator: torch.Generator) -> Edit:
    """An edit that removes one key other than the peak, drawn with ``generator`` (a row with a single
    real key is left as it is)."""

    def edit(weights: torch.Tensor, mask=None) -> torch.Tensor:
        real = _real(weights, mask)
        peak = weights.argmax(-1, keepdim=True)
        choices = real.scatter(-1, peak, False)  # [B, S] the real keys other than the peak
        noise = torch.rand(weights.shape, generator=generator).to(weights.device)
        pick = torch.where(choices, noise, torch.full_like(noise, -1.0)).argmax(-1, keepdim=True)  # [B, 1]
        has_other = choices.any(-1, keepdim=True)
        out = _renormalise(weights.scatter(-1, pick, 0.0), real.scatter(-1, pick, False))
        return torch.where(has_other, out, weights)

    return edit


def remove_second(weights: torch.Tensor, mask=None) -> torch.Tensor:
    """The key with the second-largest weight gets 0; the others share its weight in proportion
    (a row with a single real key is left as it is)."""
    real = _real(weights, mask)
    ranked = torch.where(real, weights, torch.full_like(weights, -1.0))
    second = ranked.topk(min(2, weights.shape[-1]), dim=-1).indices[:, -1:]  # [B, 1]
    has_second = real.sum(-1, keepdim=True) > 1
    out = _renormalise(weights.scatter(-1, second, 0.0), real.scatter(-1, second, False))
    return torch.where(has_second, out, weights)


def remove_equal_mass(weights: torch.Tensor, mask=None) -> torch.Tensor:
    """As much weight as the peak has, taken from the other keys in proportion to their weights (all of
    it when the peak holds more than half), then renormalised: the peak itself is kept."""
    peak = weights.argmax(-1, keepdim=True)  # [B, 1]
    is_peak = torch.zeros_like(weights, dtype=torch.bool).scatter(-1, peak, True)
    peak_w = weights.gather(-1, peak)  # [B, 1]
    rest = (1.0 - peak_w).clamp(min=0.0)
    removed = torch.minimum(peak_w, rest)
    factor = torch.where(rest > 1e-12, 1.0 - removed / rest.clamp(min=1e-12), torch.zeros_like(rest))
    out = torch.where(is_peak, weights, weights * factor)
    return out / out.sum(-1, keepdim=True).clamp(min=1e-12)


def uniform(weights: torch.Tensor, mask=None) -> torch.Tensor:
    """Every real key the same weight 1 / S."""
    real = _real(weights, mask).to(weights.dtype)
    return real / real.sum(-1, keepdim=True).clamp(min=1)


def shuffle(generator: torch.Generator) -> Edit:
    """An edit that permutes each row's weights over its real keys (a random permutation per row)."""

    def edit(weights: torch.Tensor, mask=None) -> torch.Tensor:
        real = _real(weights, mask)
        out = weights.clone()
        for b in range(weights.shape[0]):
            idx = real[b].nonzero().flatten()
            out[b, idx] = weights[b, idx[torch.randperm(len(idx), generator=generator)]]
        return out

    return edit


def zero(weights: torch.Tensor, mask=None) -> torch.Tensor:
    """All weights 0: the context vector c_t becomes the zero vector."""
    return torch.zeros_like(weights)


class _EditedAttention(torch.nn.Module):
    """Wraps a decoder's Attention: the weights of a one-step call go through ``edit``; c_t is recomputed."""

    def __init__(self, inner: torch.nn.Module, edit: Edit):
        super().__init__()
        self.inner, self.edit = inner, edit

    def forward(self, query, keys, values=None, mask=None) -> AttentionResult:
        result = self.inner(query, keys, values, mask)
        if self.edit is None:
            return result
        if result.weights.dim() != 2:
            raise HelpersError("edit_attention 只改单步的注意力 (one decoding step at a time)：请用 model.step。")
        weights = self.edit(result.weights, mask)  # [B, S]
        values = keys if values is None else values  # [B, S, Dv]
        context = (weights[:, None, :] @ values)[:, 0]  # [B, Dv]   Eq. (9-38) with the edited α
        return AttentionResult(context, weights, result.scores)


@contextmanager
def edit_attention(model, edit: Edit | None):
    """Inside the block, the decoder's attention weights of every step pass through ``edit``."""
    decoder = model.decoder
    if not hasattr(decoder, "attention"):
        raise HelpersError(f"模型 {model.variant!r} 没有注意力 (no attention)：无注意力模型 none 没有可以修改的权重。")
    inner = decoder.attention
    decoder.attention = _EditedAttention(inner, edit)
    try:
        yield
    finally:
        decoder.attention = inner


def _ids(vocab, tokens) -> list[int]:
    return vocab.encode(list(tokens))


@torch.no_grad()
def step_outputs(model, src_tokens, tgt_tokens, edit: Edit | None = None, at: int | None = None):
    """Teacher forcing on ``tgt_tokens``: (probabilities [T+1, V], attention [T+1, S]) of every step
    (the last row is the <eos> step); ``edit`` is applied at step ``at`` only (t from 1), or at every
    step when ``at`` is None."""
    from helpers.decode import BOS

    model.eval()
    src = torch.tensor([_ids(model.src_vocab, src_tokens)])
    tgt = [BOS] + _ids(model.tgt_vocab, tgt_tokens)
    state = model.start(src, torch.tensor([src.shape[1]]))
    probs, weights = [], []
    for t, prev in enumerate(tgt, start=1):
        active = edit if (at is None or at == t) else None
        with edit_attention(model, active):
            logits, w, state = model.step(torch.tensor([prev]), state)
        probs.append(torch.softmax(logits[0], -1))
        weights.append(w[0])
    return torch.stack(probs), torch.stack(weights)


@dataclass
class RemovalResult:
    """What ``peak_removal`` measured: per edit, the share of steps whose arg-max word changed."""

    steps: int  # decoding steps measured (the <eos> step included)
    changed: dict[str, float]  # edit name -> share of steps whose arg-max token changed
    prob_drop: dict[str, float]  # edit name -> mean drop of the probability of the unedited word
    peak_weight: float  # mean weight of the removed peak key
    step_peak: list[float] = field(default_factory=list)  # per measured step: the weight of its peak key
    step_changed: dict[str, list[bool]] = field(default_factory=dict)  # edit -> per step: did the word change
    step_removed: dict[str, list[float]] = field(default_factory=dict)  # edit -> per step: weight moved by the edit


@torch.no_grad()
def peak_removal(model, pairs, edits: dict[str, Edit], batch_size: int = 128) -> RemovalResult:
    """Over ``pairs`` (their sources): decode greedily, then re-run every step once with each edit.

    Besides the shares, the result keeps every measured step: its peak weight, and per edit whether the
    word changed and how much weight the edit moved (half the L1 distance between the unedited and the
    edited row: for ``remove_peak`` the peak's weight p; for ``remove_equal_mass`` 1 - p when p > 0.5, and
    p^2 / (1 - p) when p <= 0.5, since renormalising gives part of the weight taken back to the peak)."""
    from helpers.decode import BOS, EOS, decode_sentences, pad_sequences

    model.eval()
    src_ids = [_ids(model.src_vocab, p.src) for p in pairs]
    outputs = decode_sentences(model, src_ids).tokens  # the model's own words, no <bos> / <eos>
    changed = {name: 0 for name in edits}
    drop = {name: 0.0 for name in edits}
    steps, peak_sum = 0, 0.0
    step_peak: list[float] = []
    step_changed: dict[str, list[bool]] = {name: [] for name in edits}
    step_removed: dict[str, list[float]] = {name: [] for name in edits}
    for start in range(0, len(pairs), batch_size):
        src, lens = pad_sequences(src_ids[start:start + batch_size])
        tgt, tgt_lens = pad_sequences([[BOS] + list(o) + [EOS] for o in outputs[start:start + batch_size]])
        state = model.start(src, lens)
        for t in range(tgt.shape[1] - 1):
            live = tgt_lens > t + 1  # rows that still have a word (or <eos>) to predict at this step
            logits, w, new_state = model.step(tgt[:, t], state)
            word = logits.argmax(-1)  # [B]  the unedited word (= the greedy output)
            p = torch.softmax(logits, -1).gather(-1, word[:, None])[:, 0]
            for name, edit in edits.items():
                with edit_attention(model, edit):
                    edited, w_edited, _ = model.step(tgt[:, t], state)
                moved = (edited.argmax(-1) != word)[live]
                changed[name] += int(moved.sum())
                step_changed[name] += moved.tolist()
                step_removed[name] += (0.5 * (w_edited - w).abs().sum(-1))[live].tolist()
                q = torch.softmax(edited, -1).gather(-1, word[:, None])[:, 0]
                drop[name] += float(((p - q) * live).sum())
            steps += int(live.sum())
            peak_sum += float((w.max(-1).values * live).sum())
            step_peak += w.max(-1).values[live].tolist()
            state = new_state
    return RemovalResult(steps, {n: c / steps for n, c in changed.items()}, {n: d / steps for n, d in drop.items()},
                         peak_sum / steps, step_peak, step_changed, step_removed)


# --------------------------------------------------------------------------- first clauses (notebook 01)
# The reveal of notebook 01's prediction exercise: a graded kernel may import this module, not the exercises.
FIRST_CLAUSES = 200  # the first 200 long sentences that have a comma
_CLAUSE_MEMO: dict = {}


def first_clauses(n: int = FIRST_CLAUSES) -> list[tuple[list[str], str]]:
    """(English tokens, Chinese reference) of the first clause of the first ``n`` long pairs with a comma:
    the source up to its first ',' plus '.', the reference up to its first '，' plus '。'."""
    from helpers.corpus import load_corpus

    out = []
    for p in load_corpus("long"):
        if "," in p.src and "，" in p.tgt:
            out.append((list(p.src[: p.src.index(",")]) + ["."], "".join(p.tgt[: p.tgt.index("，")]) + "。"))
        if len(out) == n:
            break
    return out


def first_clause_bleu(name: str = "none", n: int = FIRST_CLAUSES) -> float:
    """Corpus char-BLEU of the shipped model ``name`` on ``first_clauses(n)``."""
    if (name, n) not in _CLAUSE_MEMO:
        from helpers.checkpoint import load_pretrained
        from helpers.decode import decode_sentences

        model = load_pretrained(name)
        clauses = first_clauses(n)
        result = decode_sentences(model, [model.src_vocab.encode(src) for src, _ in clauses])
        hyps = ["".join(model.tgt_vocab.decode(ids)) for ids in result.tokens]
        _CLAUSE_MEMO[name, n] = round(float(bleu(hyps, [ref for _, ref in clauses], level="char")), 4)
    return _CLAUSE_MEMO[name, n]
