"""Decoding: batched greedy search, beam search and ``translate`` (the decoding process of Fig. 9-25).

Both searches build on the step API of ``helpers.seq2seq.Seq2Seq``: ``model.start`` runs the encoder
once, ``model.step`` gives the logits of the next target token and the attention weights α_t of
Eq. (9-37) for that step. Every search returns, per sentence, the generated tokens (no <bos>/<eos>)
and the attention matrix ``[T, S]``: row j = the weights over the S source tokens while producing
target token j; when the sentence ended with <eos> there is one extra final row (the <eos> step).

* ``greedy_decode``: the arg-max token at every step, for a whole batch at once. A sentence stops at
  <eos> or after ``max_len`` steps (default ``2 * S + 5`` for a source of S tokens); finished
  sentences leave the batch so the remaining steps only compute what is still running. ``max_len``
  (an int, or a callable of S) must give 1..MAX_DECODE_LEN steps; anything else is a ``HelpersError``.
* ``beam_search``: keeps the ``beam_size`` best partial translations per sentence (all sentences and
  beams in one batch of B·k rows), collects a hypothesis when it emits <eos> among the top k, and
  stops a sentence when k hypotheses are finished. The winner maximises the length-normalised
  log-probability ``log p(y|x) / lp(y)`` plus the coverage penalty cp(x; y) (Wu et al. 2016):
  lp = |y|^α (``length_norm="power"``, the default) or ((5 + |y|) / 6)^α (``"gnmt"``), |y| counting
  the <eos>, α = ``length_penalty``; cp = β Σ_i log min(Σ_j α_ji, 1), β = ``coverage_penalty``
  (default 0). With ``beam_size=1`` and no coverage penalty it returns exactly what greedy decoding returns.
* Both searches take ``eos_guard=(k, m)``: <eos> only once the attention of the tokens produced so far
  has put a total weight ≥ m on the last k source tokens. ``helpers.translation.penalties`` defines the rules.
* ``next_token_topk`` / ``translation_topk``: teacher-force a fixed output (a ``Translation``'s own) through the
  same ``start`` / ``step`` calls and keep the k most probable next tokens at every step, with the chosen one
  (its probability and rank). ``beam_trace``: the same beam search, recording the hypotheses it kept and the
  ones that ended at every step (``BeamStep``) and which one won. The explorer of notebook 07a shows both.
* ``decode_sentences``: decode a list of token-id lists in length-sorted batches, results in input order.
* ``translate(model, sentence)``: English text -> ``Translation`` (tokens, Chinese text, attention, the
  unknown words copied through attention: ``helpers.translation.copying``, the source read by ``helpers.translation.source``),
  with the model's shipped decoding (``shipped_decoding(model)``, read from its metadata) unless the
  caller gives other options.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import torch

from helpers.runtime.errors import HelpersError, check_float, check_int
from helpers.translation.copying import CopiedWord, copy_unknown, join_chinese
from helpers.translation.penalties import (
    check_coverage,
    check_eos_guard,
    check_length_norm,
    coverage_penalty,
    eos_allowed,
    length_norm,
)
from helpers.translation.source import MAX_SRC_LIMIT, MAX_SRC_TOKENS, prepare_source, read_source  # noqa: F401 (re-exported)

__all__ = [
    "MAX_BEAM_SIZE",
    "MAX_SRC_TOKENS",
    "GREEDY",
    "DecodeResult",
    "Translation",
    "BeamStep",
    "BeamTrace",
    "TopK",
    "beam_search",
    "beam_trace",
    "check_decoding",
    "decode_sentences",
    "default_max_len",
    "greedy_decode",
    "next_token_topk",
    "pad_sequences",
    "shipped_decoding",
    "translate",
    "translation_ids",
    "translation_topk",
]

PAD, BOS, EOS = 0, 1, 2
MAX_BEAM_SIZE = 50  # a wider beam costs time and memory and changes nothing for sentences of this corpus
LENGTH_PENALTY_RANGE = (0.0, 5.0)  # α of log p / |y|^α: 0 = no normalisation, 0.6-1 as in the literature
MAX_DECODE_LEN = 1000  # the longest output a caller may ask for (the default for 200 source tokens is 405)
MAX_DECODE_BATCH = 100_000


def check_beam_options(beam_size, length_penalty) -> tuple[int, float]:
    """Validate ``beam_size`` (an int in 1..MAX_BEAM_SIZE) and ``length_penalty`` (a finite α in 0..5)."""
    beam_size = check_int("beam_size", beam_size, 1, MAX_BEAM_SIZE, "例如 beam_size=4（1 = 贪心解码 greedy）。")
    alpha = check_float("length_penalty", length_penalty, *LENGTH_PENALTY_RANGE,
                        "例如 length_penalty=1.0（0 = 不按长度归一化 no length normalisation）。")
    return beam_size, alpha


# plain greedy decoding: what a model without a "decoding" record in its metadata uses
GREEDY = {"beam_size": 1, "length_penalty": 1.0, "length_norm": "power", "coverage_penalty": 0.0, "eos_guard": None}


def check_decoding(beam_size=1, length_penalty=1.0, length_norm="power", coverage_penalty=0.0,
                   eos_guard=None) -> dict:
    """Validate a set of decoding options; returns them as a plain dict (keys of ``GREEDY``)."""
    beam_size, alpha = check_beam_options(beam_size, length_penalty)
    guard = check_eos_guard(eos_guard)
    return {"beam_size": beam_size, "length_penalty": alpha, "length_norm": check_length_norm(length_norm),
            "coverage_penalty": check_coverage(coverage_penalty), "eos_guard": None if guard is None else list(guard)}


def shipped_decoding(model) -> dict:
    """The decoding a model ships with (``model.meta["decoding"]``, written by ``helpers.tools.pretrain``),
    else plain greedy (``GREEDY``)."""
    record = (getattr(model, "meta", None) or {}).get("decoding") or {}
    if not isinstance(record, dict):
        raise HelpersError(f"模型元数据里的 decoding 不是字典 (bad decoding record): {record!r}。"
                           f"请用 helpers.tools.pretrain 重新生成模型。")
    unknown = sorted(set(record) - set(GREEDY))
    if unknown:
        raise HelpersError(f"模型元数据里的 decoding 有未知的键 (unknown decoding keys): {unknown}。"
                           f"可用的键 (known): {list(GREEDY)}。")
    return check_decoding(**{**GREEDY, **record})


def default_max_len(src_len: int) -> int:
    """Longest output allowed for a source of ``src_len`` tokens: 2 * S + 5."""
    return 2 * int(src_len) + 5


@dataclass
class DecodeResult:
    """Output of a search for a batch of B sentences (lists in batch order).

    tokens[b]     generated target ids, without <bos> / <eos>
    attention[b]  numpy [T_b, S_b] (T_b = len(tokens[b]) + 1 if finished[b], the <eos> step), or None
                  for a model without attention; S_b is the source length of sentence b
    scores[b]     log-probability of the output (including <eos> when finished)
    finished[b]   True when the sentence ended with <eos> (False: stopped at max_len)
    """

    tokens: list[list[int]]
    attention: list[np.ndarray] | None
    scores: list[float]
    finished: list[bool] = field(default_factory=list)


def pad_sequences(seqs, pad_id: int = PAD, device=None) -> tuple[torch.Tensor, torch.Tensor]:
    """List of id lists -> (padded long tensor [B, L], lengths [B])."""
    lens = torch.tensor([len(s) for s in seqs], dtype=torch.long)
    out = torch.full((len(seqs), int(lens.max()) if len(seqs) else 0), pad_id, dtype=torch.long)
    for b, s in enumerate(seqs):
        out[b, : len(s)] = torch.as_tensor(list(s), dtype=torch.long)
    if device is not None:
        out, lens = out.to(device), lens.to(device)
    return out, lens


def _check_max_len(value, what: str = "max_len") -> int:
    """An output length limit: an int in 1..MAX_DECODE_LEN (a whole float from a callable is accepted)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return check_int(what, value, 1, MAX_DECODE_LEN,
                     "例如 max_len=20，或 max_len=None（默认 default: 2 S + 5）；至少要解码一步 (at least one step)。")


def _limits(src_lens: torch.Tensor, max_len) -> torch.Tensor:
    if max_len is None:
        return 2 * src_lens.cpu().long() + 5  # [B]
    if callable(max_len):
        return torch.tensor([_check_max_len(max_len(int(s)), "max_len(S)") for s in src_lens.cpu()], dtype=torch.long)
    return torch.full((src_lens.shape[0],), _check_max_len(max_len), dtype=torch.long)


# --------------------------------------------------------------------------------------- greedy
@torch.no_grad()
def greedy_decode(model, src: torch.Tensor, src_lens: torch.Tensor, max_len=None,
                  bos_id: int = BOS, eos_id: int = EOS, eos_guard=None) -> DecodeResult:
    """Batched greedy decoding. src [B, S], src_lens [B]; max_len: int, callable(S) or None (2 S + 5).

    eos_guard: None or (k, m), see ``helpers.translation.penalties`` (ignored by a model without attention).
    """
    guard = check_eos_guard(eos_guard)
    was_training = model.training
    model.eval()
    try:
        return _greedy(model, src, src_lens, max_len, bos_id, eos_id, guard)
    finally:
        model.train(was_training)


def _greedy(model, src, src_lens, max_len, bos_id, eos_id, guard=None) -> DecodeResult:
    state = model.start(src, src_lens)
    B, S = src.shape
    src_lens_cpu = src_lens.cpu().long()
    limits = _limits(src_lens_cpu, max_len)  # [B]
    max_steps = int(limits.max()) if B else 0
    out_tok = torch.full((B, max_steps), PAD, dtype=torch.long)  # [B, T_max]
    out_attn = None  # [B, T_max, S], allocated at the first step of a model with attention
    score = torch.zeros(B, dtype=torch.float64)  # [B]
    n_steps = torch.zeros(B, dtype=torch.long)  # [B] steps taken per sentence
    finished = torch.zeros(B, dtype=torch.bool)  # [B]
    active = torch.arange(B)  # original batch index of each live row
    prev = torch.full((B,), bos_id, dtype=torch.long, device=src.device)
    has_attention = False
    cumulative = torch.zeros((B, S), dtype=torch.float64)  # [b, S] Σ_{j<t} α_j of the live rows (eos_guard)
    for t in range(max_steps):
        logits, attn, state = model.step(prev, state)  # [b, V], [b, S] or None
        logp = torch.log_softmax(logits.float(), dim=-1)  # [b, V]
        if guard is not None and attn is not None:
            barred = ~eos_allowed(cumulative, src_lens_cpu[active], guard)  # [b]
            masked = logp.clone()
            masked[barred.to(logp.device), eos_id] = -math.inf
            best = masked.argmax(dim=-1)  # [b] the best token that is allowed
            cumulative += attn.double().cpu()
        else:
            best = logp.argmax(dim=-1)  # [b]
        best_cpu = best.cpu()
        out_tok[active, t] = best_cpu
        score[active] += logp.gather(1, best[:, None])[:, 0].double().cpu()
        if attn is not None:
            has_attention = True
            if out_attn is None:
                out_attn = torch.zeros((B, max_steps, S))
            out_attn[active, t] = attn.float().cpu()
        n_steps[active] = t + 1
        is_eos = best_cpu == eos_id  # [b]
        finished[active[is_eos]] = True
        keep = ~is_eos & (t + 1 < limits[active])  # [b]
        if not bool(keep.all()):  # drop finished rows from the batch
            active = active[keep]
            if not active.numel():
                break
            rows = keep.nonzero()[:, 0].to(src.device)
            state = state.index_select(rows)
            best = best[rows]
            cumulative = cumulative[keep]
        prev = best
    tokens, attention = [], []
    for b in range(B):
        n = int(n_steps[b])
        tokens.append(out_tok[b, : n - 1 if finished[b] else n].tolist())
        if has_attention:
            attention.append(out_attn[b, :n, : int(src_lens_cpu[b])].numpy())
    return DecodeResult(tokens, attention if has_attention else None, score.tolist(), finished.tolist())


# ------------------------------------------------------------------------------------------ beam
@torch.no_grad()
def beam_search(model, src: torch.Tensor, src_lens: torch.Tensor, beam_size: int = 4,
                length_penalty: float = 1.0, max_len=None, bos_id: int = BOS,
                eos_id: int = EOS, *, length_norm: str = "power", coverage_penalty: float = 0.0,
                eos_guard=None) -> DecodeResult:
    """Batched beam search of width ``beam_size``; returns the best hypothesis per sentence.

    A hypothesis scores log p(y|x) / lp(y) + cp(x; y): lp of form ``length_norm`` ("power": |y|^α,
    "gnmt": ((5 + |y|) / 6)^α) with α = ``length_penalty``, cp the coverage penalty with
    β = ``coverage_penalty``; ``eos_guard`` = None or (k, m). See ``helpers.translation.penalties``.
    """
    opts = check_decoding(beam_size, length_penalty, length_norm, coverage_penalty, eos_guard)
    was_training = model.training
    model.eval()
    try:
        return _beam_search(model, src, src_lens, opts["beam_size"], opts["length_penalty"], max_len, bos_id,
                            eos_id, opts["length_norm"], opts["coverage_penalty"],
                            None if opts["eos_guard"] is None else tuple(opts["eos_guard"]))
    finally:
        model.train(was_training)


def _beam_search(model, src, src_lens, k, alpha, max_len, bos_id, eos_id, form="power", beta=0.0,
                 guard=None, trace: list | None = None) -> DecodeResult:
    """The search of ``beam_search``. ``trace``: None, or a list that receives one ``BeamStep`` per step
    for sentence 0 of the batch (what ``beam_trace`` shows); it changes nothing in the search."""
    device = src.device
    B = src.shape[0]
    src_lens_cpu = src_lens.cpu().long()
    row_lens = src_lens_cpu.repeat_interleave(k)  # [B k] source length of each beam row

    def final_score(s: float, length: int, a, b: int) -> float:  # log p / lp + cp
        cp = coverage_penalty(a[:, : int(src_lens_cpu[b])], beta) if a is not None else 0.0
        return s / length_norm(length, alpha, form) + cp

    limits = _limits(src_lens_cpu, max_len)  # [B]
    state = model.start(src, src_lens).index_select(torch.arange(B, device=device).repeat_interleave(k))
    scores = torch.full((B, k), -math.inf)  # [B, k]
    scores[:, 0] = 0.0  # only beam 0 is alive at the start
    hist = torch.zeros((B * k, 0), dtype=torch.long)  # [B k, t] tokens so far
    attn_hist = None  # [B k, t, S]
    prev = torch.full((B * k,), bos_id, dtype=torch.long, device=device)
    done = [False] * B
    final: list[list[tuple]] = [[] for _ in range(B)]  # (normalised, score, tokens, attention, finished)
    has_attention = False
    t = 0
    while not all(done):
        logits, attn, state = model.step(prev, state)  # [B k, V], [B k, S] or None
        has_attention = attn is not None
        V = logits.shape[-1]
        logp = torch.log_softmax(logits.float(), dim=-1).cpu()  # [B k, V]
        if guard is not None and has_attention:
            cumulative = attn_hist.sum(1) if attn_hist is not None else torch.zeros(B * k, attn.shape[-1])  # [B k, S]
            logp[~eos_allowed(cumulative, row_lens, guard), eos_id] = -math.inf
        cand = (scores.view(B * k, 1) + logp).view(B, k * V)  # [B, k V]
        top_s, top_i = cand.topk(min(2 * k, k * V), dim=1)  # [B, 2k]
        beam_of, tok_of = top_i // V, top_i % V  # [B, 2k]
        step_attn = attn.float().cpu() if has_attention else None  # [B k, S]
        new_rows, new_toks, new_scores = [], [], []
        for b in range(B):
            picked = []
            n_final = len(final[b])
            was_done = done[b]
            if not done[b]:
                for j in range(top_s.shape[1]):
                    s = float(top_s[b, j])
                    if s == -math.inf:
                        break
                    row = b * k + int(beam_of[b, j])
                    if int(tok_of[b, j]) == eos_id:
                        if j < k:  # an <eos> among the k best closes a hypothesis
                            a = None
                            if has_attention:
                                a = torch.cat([attn_hist[row], step_attn[row][None]], 0) if attn_hist is not None \
                                    else step_attn[row][None]
                            final[b].append((final_score(s, t + 1, a, b), s, hist[row].tolist(), a, True))
                        continue
                    if len(picked) < k:
                        picked.append((row, int(tok_of[b, j]), s))
                if len(final[b]) >= k or not picked:
                    done[b] = True
                elif t + 1 >= int(limits[b]):  # out of steps: the live beams become (unfinished) hypotheses
                    for row, tok, s in picked:
                        a = None
                        if has_attention:
                            a = torch.cat([attn_hist[row], step_attn[row][None]], 0) if attn_hist is not None \
                                else step_attn[row][None]
                        final[b].append((final_score(s, t + 1, a, b), s, hist[row].tolist() + [tok], a, False))
                    done[b] = True
            if trace is not None and b == 0 and not was_done:
                trace.append(BeamStep(
                    t=t + 1,
                    kept=[(hist[row].tolist() + [tok], s) for row, tok, s in picked] if not done[b] else [],
                    ended=[(h[2], h[1], h[0], h[4]) for h in final[b][n_final:]]))
            if done[b]:
                picked = []
            while len(picked) < k:  # dead slots: keep shapes, score -inf
                picked.append((b * k, PAD, -math.inf))
            for row, tok, s in picked:
                new_rows.append(row)
                new_toks.append(tok)
                new_scores.append(s)
        t += 1
        if all(done):
            break
        rows_t = torch.tensor(new_rows, dtype=torch.long)
        toks_t = torch.tensor(new_toks, dtype=torch.long)
        state = state.index_select(rows_t.to(device))
        hist = torch.cat([hist[rows_t], toks_t[:, None]], dim=1)  # [B k, t]
        if has_attention:
            step_sel = step_attn[rows_t][:, None]  # [B k, 1, S]
            attn_hist = step_sel if attn_hist is None else torch.cat([attn_hist[rows_t], step_sel], 1)
        scores = torch.tensor(new_scores).view(B, k)
        prev = toks_t.to(device)

    tokens, attention, out_scores, finished = [], [], [], []
    for b in range(B):
        best = max(final[b], key=lambda h: h[0])  # first of equals wins (stable)
        tokens.append(best[2])
        out_scores.append(best[1])
        finished.append(best[4])
        if has_attention:
            attention.append(best[3][:, : int(src_lens_cpu[b])].numpy())
    return DecodeResult(tokens, attention if has_attention else None, out_scores, finished)


# ------------------------------------------------------------------------- what a step looked at
@dataclass
class TopK:
    """The k most probable next tokens at every step of one fixed output (``next_token_topk``).

    ids[j], probs[j]  the k token ids with the largest p(y_t | y_<t, x) at step t = j + 1, most probable
                      first (ties: the smaller id first), and their probabilities (softmax of the logits)
    tokens[j]         the same as strings ("<eos>", "<unk>" included)
    chosen[j]         the id the output has at step t (<eos> at the last step of a finished output)
    chosen_prob[j]    its probability; chosen_rank[j] its rank among all V tokens (1 = the most probable)
    """

    ids: np.ndarray  # [T, k] int
    probs: np.ndarray  # [T, k] float64
    tokens: list[list[str]]
    chosen: list[int]
    chosen_prob: np.ndarray  # [T]
    chosen_rank: list[int]


@torch.no_grad()
def next_token_topk(model, src_ids, out_ids, k: int = 5, finished: bool = True) -> TopK:
    """Feed the fixed output ``out_ids`` (no <bos> / <eos>) to the decoder step by step (teacher forcing
    with ``model.start`` / ``model.step``, the calls greedy and beam search make) and keep, at every step,
    the k most probable next tokens. ``finished``: the output ended with <eos>, so there is one more step
    (the <eos> step), as in a ``Translation``'s attention. For ``translate``'s output, greedy decoding
    gives top-1 = the chosen token at every step (no ``eos_guard``)."""
    k = check_int("k", k, 1, MAX_BEAM_SIZE, "例如 k=5。")
    src_ids, out_ids = [int(i) for i in src_ids], [int(i) for i in out_ids]
    if not src_ids:
        raise HelpersError("源句是空的 (empty source)：src_ids 至少要有一个 id。")
    targets = out_ids + ([EOS] if finished else [])
    if not targets:
        raise HelpersError("没有输出步 (no steps)：out_ids 为空且 finished=False。")
    was_training = model.training
    model.eval()
    try:
        device = next(model.parameters()).device
        state = model.start(torch.tensor([src_ids], device=device), torch.tensor([len(src_ids)], device=device))
        prev = torch.tensor([BOS], device=device)
        rows = []
        for tok in targets:
            logits, _, state = model.step(prev, state)  # [1, V]
            rows.append(torch.softmax(logits[0].double(), dim=-1).cpu())  # [V]
            prev = torch.tensor([tok], device=device)
    finally:
        model.train(was_training)
    P = torch.stack(rows)  # [T, V]
    k = min(k, P.shape[1])
    order = torch.from_numpy(np.argsort(-P.numpy(), axis=1, kind="stable")[:, :k].copy())  # [T, k]
    probs = P.gather(1, order)  # [T, k]
    chosen_p = P[torch.arange(len(targets)), torch.tensor(targets)]  # [T]
    ranks = [int((P[j] > chosen_p[j]).sum()) + 1 for j in range(len(targets))]
    vocab = getattr(model, "tgt_vocab", None)
    names = (lambda i: vocab.itos[i]) if vocab is not None else str
    return TopK(order.numpy(), probs.numpy(), [[names(int(i)) for i in row] for row in order],
                targets, chosen_p.numpy(), ranks)


def translation_ids(model, translation) -> tuple[list[int], list[int]]:
    """(source ids, output ids) of a ``Translation`` of ``model``: what the decoder read and emitted.

    Unknown source words are <unk>; a copied output word (``translation.copied``) was emitted as <unk>."""
    src_vocab, tgt_vocab = getattr(model, "src_vocab", None), getattr(model, "tgt_vocab", None)
    if src_vocab is None or tgt_vocab is None:
        raise HelpersError("这个模型没有词表 (model has no vocabularies)：请用 load_pretrained / load_checkpoint / make_model 的模型。")
    out = list(translation.tgt_tokens)
    for c in translation.copied:
        out[c.tgt_index] = tgt_vocab.UNK
    return src_vocab.encode(translation.src_tokens, unknown="unk"), tgt_vocab.encode(out, unknown="unk")


def translation_topk(model, translation, k: int = 5) -> TopK:
    """``next_token_topk`` along ``translation``'s own output (``translate(model, ...)``): one row per row of
    its attention matrix (the last one is the <eos> step when the output ended with <eos>)."""
    src, out = translation_ids(model, translation)
    finished = translation.attention is None or translation.attention.shape[0] > len(out)
    return next_token_topk(model, src, out, k=k, finished=finished)


@dataclass
class BeamStep:
    """One step t (from 1) of beam search, for one sentence.

    kept   the live hypotheses after step t, best first: (tokens without <bos>, log p(y_1..y_t | x))
    ended  the hypotheses collected at step t: (tokens without <eos>, log p including <eos>, final score
           = log p / lp + cp, finished); finished False = still running when max_len was reached
    """

    t: int
    kept: list[tuple[list[int], float]]
    ended: list[tuple[list[int], float, float, bool]]


@dataclass
class BeamTrace:
    """What ``beam_search`` kept at every step for one sentence, and which hypothesis won.

    steps    one ``BeamStep`` per step
    best     (step index, index in that step's ``ended``) of the chosen hypothesis
    result   the ``DecodeResult`` of the same search (batch of one)
    """

    steps: list[BeamStep]
    best: tuple[int, int]
    result: DecodeResult
    beam_size: int

    @property
    def chosen(self) -> tuple[list[int], float, float, bool]:
        """(tokens, log p, final score, finished) of the winner."""
        return self.steps[self.best[0]].ended[self.best[1]]


@torch.no_grad()
def beam_trace(model, src_ids, beam_size: int = 4, length_penalty: float = 1.0, max_len=None, *,
               length_norm: str = "power", coverage_penalty: float = 0.0, eos_guard=None) -> BeamTrace:
    """Run ``beam_search`` on one source (a list of ids) and keep what it held at every step.

    The search is the same function with the same options (the trace only records); ``result`` is what
    ``beam_search`` returns, and the chosen hypothesis is the first of the highest final score, as there.
    Scores are sums of log-probabilities (natural log) of the tokens, <eos> included once a hypothesis ends."""
    opts = check_decoding(beam_size, length_penalty, length_norm, coverage_penalty, eos_guard)
    src_ids = [int(i) for i in src_ids]
    if not src_ids:
        raise HelpersError("源句是空的 (empty source)：src_ids 至少要有一个 id。")
    device = next(model.parameters()).device
    src = torch.tensor([src_ids], device=device)
    lens = torch.tensor([len(src_ids)], device=device)
    steps: list[BeamStep] = []
    was_training = model.training
    model.eval()
    try:
        result = _beam_search(model, src, lens, opts["beam_size"], opts["length_penalty"], max_len, BOS, EOS,
                              opts["length_norm"], opts["coverage_penalty"],
                              None if opts["eos_guard"] is None else tuple(opts["eos_guard"]), trace=steps)
    finally:
        model.train(was_training)
    ended = [(si, hi, h[2]) for si, st in enumerate(steps) for hi, h in enumerate(st.ended)]
    top = max(h for _, _, h in ended)
    si, hi, _ = next(e for e in ended if e[2] == top)  # first of equals, as beam_search picks
    return BeamTrace(steps, (si, hi), result, opts["beam_size"])


# ------------------------------------------------------------------------------ many sentences
def _search(model, src, lens, opts: dict, guard, max_len=None) -> DecodeResult:
    """Greedy (beam 1, no coverage penalty: the same result, batched) or beam search with ``opts``."""
    if opts["beam_size"] == 1 and not opts["coverage_penalty"]:
        return greedy_decode(model, src, lens, max_len=max_len, eos_guard=guard)
    return beam_search(model, src, lens, beam_size=opts["beam_size"], length_penalty=opts["length_penalty"],
                       max_len=max_len, length_norm=opts["length_norm"], coverage_penalty=opts["coverage_penalty"],
                       eos_guard=guard)


def decode_sentences(model, src_ids, batch_size: int = 256, beam_size: int = 1, length_penalty: float = 1.0,
                     max_len=None, device=None, *, length_norm: str = "power", coverage_penalty: float = 0.0,
                     eos_guard=None) -> DecodeResult:
    """Decode a list of source id lists (each may end with the source <eos>) in length-sorted batches.

    Returns one DecodeResult in the input order. beam_size=1 without a coverage penalty uses
    ``greedy_decode`` (with ``eos_guard``); otherwise ``beam_search``. ``decode_sentences(model, ids,
    **shipped_decoding(model))`` decodes as ``translate`` does.
    """
    opts = check_decoding(beam_size, length_penalty, length_norm, coverage_penalty, eos_guard)
    guard = None if opts["eos_guard"] is None else tuple(opts["eos_guard"])
    batch_size = check_int("batch_size", batch_size, 1, MAX_DECODE_BATCH, "例如 batch_size=256。")
    src_ids = [list(s) for s in src_ids]
    if device is None:
        device = next(model.parameters()).device
    order = sorted(range(len(src_ids)), key=lambda i: len(src_ids[i]))
    tokens, attention, scores, finished = [None] * len(src_ids), [None] * len(src_ids), [0.0] * len(src_ids), \
        [False] * len(src_ids)
    has_attention = False
    for start in range(0, len(order), batch_size):
        idx = order[start: start + batch_size]
        src, lens = pad_sequences([src_ids[i] for i in idx], device=device)
        r = _search(model, src, lens, opts, guard, max_len)
        has_attention = r.attention is not None
        for n, i in enumerate(idx):
            tokens[i], scores[i], finished[i] = r.tokens[n], r.scores[n], r.finished[n]
            if has_attention:
                attention[i] = r.attention[n]
    return DecodeResult(tokens, attention if has_attention else None, scores, finished)


# ------------------------------------------------------------------------------------- translate
@dataclass
class Translation:
    """The result of ``translate``.

    src_tokens  English tokens actually translated (after tokenisation / truncation)
    tgt_tokens  Chinese tokens produced (no <eos>)
    text        the Chinese sentence, tokens joined without spaces
    attention   numpy [T, S] with attention[j, i] = weight on src_tokens[i] while producing tgt_tokens[j];
                the last row (the <eos> step) and the last column (the source <eos>) are extra, so
                T = len(tgt_tokens) + 1 and S = len(src_tokens) + 1 when both are present. None for
                the model without attention.
    score       log-probability of the output
    truncated   True when the input had more than MAX_SRC_TOKENS tokens and only the first ones were used
    note        a bilingual remark (e.g. about truncation), or ""
    unknown     positions in src_tokens of the words outside the vocabulary (read as <unk>)
    copied      ``CopiedWord(tgt_index, src_index, word)`` for every <unk> the decoder emitted: the source
                word with the largest attention weight at that step, as the user typed it, is in
                tgt_tokens[tgt_index] and in the text (Luong et al. 2015b). The model without attention
                copies nothing: its tgt_tokens and text keep "<unk>" (and ``note`` says so).
    """

    src_tokens: list[str]
    tgt_tokens: list[str]
    text: str
    attention: np.ndarray | None
    score: float = 0.0
    truncated: bool = False
    note: str = ""
    model_name: str | None = None
    unknown: list[int] = field(default_factory=list)
    copied: list[CopiedWord] = field(default_factory=list)

    def __repr__(self) -> str:
        shape = None if self.attention is None else list(self.attention.shape)
        extra = f", note={self.note!r}" if self.note else ""
        extra += f", copied={[(c.tgt_index, c.src_index, c.word) for c in self.copied]}" if self.copied else ""
        return (f"Translation(src={' '.join(self.src_tokens)!r}, text={self.text!r}, "
                f"attention shape={shape}{extra})")


def translate(model, sentence, beam_size: int | None = None, length_penalty: float | None = None,
              max_src_tokens: int = MAX_SRC_TOKENS, punctuate: bool = True, **decoding) -> Translation:
    """Translate one English sentence with ``model`` (a model from ``load_pretrained`` / ``make_model``).

    The sentence is read as a student types it (``helpers.translation.source.read_source``): capitals, contractions,
    digits, extra spaces; the final "." or "?" is added when missing (``punctuate=False``: the tokens as
    typed). A word outside the vocabulary becomes <unk>; where the decoder emits <unk>, the source word
    with the largest attention weight at that step is written in its place (``.copied`` says which and
    from where; the model without attention keeps "<unk>"). Input without any English word (not a
    string, empty, only punctuation, Chinese, digits or symbols only) raises a ``HelpersError``
    (``ValueError``) with a Chinese + English message. Input longer than ``max_src_tokens`` tokens is
    truncated to its first ``max_src_tokens`` tokens, and the result says so (``.truncated``, ``.note``).
    Decoding: the model's shipped decoding (``shipped_decoding(model)``; plain greedy for a model that
    has none), with any option the caller gives instead: ``beam_size``, ``length_penalty`` and, by
    keyword, ``length_norm``, ``coverage_penalty``, ``eos_guard`` (see ``beam_search``).
    Options are bounded before any work: ``beam_size`` an int in 1..50, ``length_penalty`` a finite
    number in 0..5, ``max_src_tokens`` an int in 1..200; anything else raises a ``HelpersError``.
    """
    unknown = sorted(set(decoding) - set(GREEDY))
    if unknown:
        raise HelpersError(f"translate 没有这些参数 (unknown options): {unknown}。"
                           f"可用的解码参数 (decoding options): {list(GREEDY)}。")
    given = {k: v for k, v in (("beam_size", beam_size), ("length_penalty", length_penalty)) if v is not None}
    given.update(decoding)  # keyword options as given (eos_guard=None: no guard, whatever the model ships)
    opts = check_decoding(**{**shipped_decoding(model), **given})
    src_vocab, tgt_vocab = getattr(model, "src_vocab", None), getattr(model, "tgt_vocab", None)
    if src_vocab is None or tgt_vocab is None:
        raise HelpersError("这个模型没有词表 (model has no vocabularies): 请用 helpers.load_pretrained(...)、"
                           "helpers.load_checkpoint(...) 或 helpers.train.make_model(...) 得到的模型。")
    if not isinstance(punctuate, bool):
        raise HelpersError(f"punctuate 只能是 True 或 False (a bool)，收到 (got) {punctuate!r}。")
    source = read_source(sentence, src_vocab, max_src_tokens, punctuate)
    device = next(model.parameters()).device
    src = torch.tensor([source.ids], dtype=torch.long, device=device)  # [1, S]
    lens = torch.tensor([len(source.ids)], dtype=torch.long, device=device)  # [1]
    r = _search(model, src, lens, opts, None if opts["eos_guard"] is None else tuple(opts["eos_guard"]))
    attention = None if r.attention is None else r.attention[0].astype(np.float32)  # [T, S]
    tgt_tokens, copied = copy_unknown(tgt_vocab.decode(r.tokens[0]), attention, source.surfaces)
    note = source.note
    if attention is None and tgt_vocab.UNK in tgt_tokens:
        note += ("这个模型没有注意力 (no attention)，无法复制未知词，输出里保留了 <unk> "
                 "(the model without attention cannot copy unknown words; <unk> is kept)。")
    return Translation(
        src_tokens=source.tokens,
        tgt_tokens=list(tgt_tokens),
        text=join_chinese(tgt_tokens) if tgt_vocab.lang == "zh" else tgt_vocab.join(tgt_tokens),
        attention=attention,
        score=float(r.scores[0]),
        truncated=source.truncated,
        note=note,
        model_name=getattr(model, "name", None),
        unknown=list(source.unknown),
        copied=copied,
    )
