"""Fast teacher-forced ``forward`` of the two decoders that must loop over time (training speed).

Bahdanau's query is s_{t-1} and Luong's input feeding puts h̃_{t-1} into step t, so neither can run its
RNN over the whole target in one call. ``helpers.decoders.run_steps`` calls ``decoder.step`` once per
position, which is the clearest code but repeats work that does not depend on t. The loops here compute
exactly the formulas of ``step`` (same parameters, same order of operations inside a step) and move
out of the loop what can be moved:

* the key projection of the additive score, W_k h̄_s [B, S, A], once per batch instead of once per step
  (Bahdanau: the largest matrix product of a step, forward and backward);
* the GRU's input projection of the target embeddings, W_ie e(y_{t-1}) + b_ih, for all t in one matrix
  product (a one-layer GRU; LSTMs and stacked RNNs keep the module call per step);
* the output layer (Bahdanau: t̃_t = tanh(W_o [s_t; c_t; e(y_{t-1})]); Luong: W_s h̃_t) and so the
  softmax over the vocabulary for all t at once, after the loop: one [B·T, H] × [H, V] product
  instead of T small ones, and one node in the autograd graph instead of T.

What remains per step is the recurrence itself: the score against the keys, the softmax over the
source, the context, one GRU cell. The numbers equal ``run_steps`` up to float rounding (a matrix
product of all rows at once may sum in another order than T products of B rows; the tests hold the
two paths within 1e-6). The same seed still gives bit-identical training runs.
"""

from __future__ import annotations

import torch
from torch.nn import functional as F

from helpers.attention import attention_vector, masked_softmax

__all__ = ["bahdanau_forward", "luong_feeding_forward"]


def _gru_one_layer(rnn) -> bool:
    return isinstance(rnn, torch.nn.GRU) and rnn.num_layers == 1 and not rnn.bidirectional


def _gru_cell(gi: torch.Tensor, h: torch.Tensor, w_hh: torch.Tensor, b_hh: torch.Tensor) -> torch.Tensor:
    """One GRU step (torch.nn.GRU's equations) from its input projection gi = W_ih x + b_ih [B, 3H]."""
    gh = F.linear(h, w_hh, b_hh)  # [B, 3H]
    i_r, i_z, i_n = gi.chunk(3, dim=1)
    h_r, h_z, h_n = gh.chunk(3, dim=1)
    r = torch.sigmoid(i_r + h_r)  # reset gate
    z = torch.sigmoid(i_z + h_z)  # update gate
    n = torch.tanh(i_n + r * h_n)  # candidate state
    return n + z * (h - n)  # (1 - z) n + z h


class _Recurrence:
    """The decoder RNN step by step; a one-layer GRU precomputes the embedding part of its input."""

    def __init__(self, rnn, emb: torch.Tensor, hidden):
        self.rnn, self.E = rnn, emb.shape[-1]
        self.fast = _gru_one_layer(rnn)
        if self.fast:
            w_ih = rnn.weight_ih_l0  # [3H, E + D]: the embedding columns first, then the extra input
            # all t at once; unbind (one autograd node), not gi_e[:, t] per step, whose backward would
            # fill a zero tensor of the whole [B, T, 3H] at every step (quadratic in T)
            self.gi_e = F.linear(emb, w_ih[:, : self.E], rnn.bias_ih_l0).unbind(1)  # T x [B, 3H]
            self.w_extra = w_ih[:, self.E:]  # [3H, D]
            self.h = hidden[0]  # [B, H]
        else:
            self.emb, self.hidden = emb.unbind(1), hidden  # T x [B, E]

    def top(self) -> torch.Tensor:
        """The top-layer state [B, H] before the next step."""
        if self.fast:
            return self.h
        h = self.hidden[0] if isinstance(self.hidden, tuple) else self.hidden
        return h[-1]

    def step(self, t: int, extra: torch.Tensor) -> torch.Tensor:
        """Input [e(y_{t-1}); extra] -> the new top-layer state [B, H]."""
        if self.fast:
            gi = self.gi_e[t] + extra @ self.w_extra.T  # [B, 3H]
            self.h = _gru_cell(gi, self.h, self.rnn.weight_hh_l0, self.rnn.bias_hh_l0)
            return self.h
        x = torch.cat([self.emb[t], extra], dim=-1)[:, None, :]  # [B, 1, E + D]
        out, self.hidden = self.rnn(x, self.hidden)
        return out[:, 0]


def bahdanau_forward(decoder, tgt_in: torch.Tensor, state):
    """Teacher forcing of ``BahdanauDecoder``: tgt_in [B, T] -> logits [B, T, V], attention [B, T, S]."""
    score = decoder.attention.score  # AdditiveScore: v_aᵀ tanh(W_q s_{t-1} + W_k h̄_s)
    enc, mask = state.encoder_outputs, state.src_mask  # [B, S, H], [B, S]
    e = decoder.dropout(decoder.embedding(tgt_in))  # [B, T, E]
    k = enc @ score.W_k.T  # [B, S, A]  once, not once per step
    rnn = _Recurrence(decoder.rnn, e, state.hidden)
    states, contexts, weights = [], [], []
    for t in range(tgt_in.shape[1]):
        q = rnn.top() @ score.W_q.T  # [B, A]  query s_{t-1}
        scores = torch.tanh(q[:, None, :] + k) @ score.v_a  # [B, S]
        alpha = masked_softmax(scores, mask)  # [B, S]
        c = (alpha[:, None, :] @ enc)[:, 0]  # [B, H]
        states.append(rnn.step(t, c))  # s_t = RNN([e(y_{t-1}); c_t], s_{t-1})
        contexts.append(c)
        weights.append(alpha)
    s, c = torch.stack(states, dim=1), torch.stack(contexts, dim=1)  # [B, T, H] each
    t_tilde = torch.tanh(decoder.W_o(torch.cat([s, c, e], dim=-1)))  # [B, T, H]  all t at once
    return decoder.W_s(decoder.dropout(t_tilde)), torch.stack(weights, dim=1)  # [B, T, V], [B, T, S]


def luong_feeding_forward(decoder, tgt_in: torch.Tensor, state):
    """Teacher forcing of ``LuongDecoder`` with input feeding: logits [B, T, V], attention [B, T, S]."""
    enc, mask = state.encoder_outputs, state.src_mask
    e = decoder.dropout(decoder.embedding(tgt_in))  # [B, T, E]
    rnn = _Recurrence(decoder.rnn, e, state.hidden)
    h_tilde = state.attn_vector  # [B, H]  h̃_0
    tildes, weights = [], []
    for t in range(tgt_in.shape[1]):
        h = rnn.step(t, h_tilde)  # ④ input [e(y_{t-1}); h̃_{t-1}] -> h_t
        r = decoder.attention(h, enc, mask=mask)  # ① α_t [B, S], ② c_t [B, H]
        h_tilde = attention_vector(r.context, h, decoder.W_c.weight)  # ③ [B, H]
        tildes.append(h_tilde)
        weights.append(r.weights)
    logits = decoder.W_s(decoder.dropout(torch.stack(tildes, dim=1)))  # [B, T, V]  all t at once
    return logits, torch.stack(weights, dim=1)
