"""The decoders of the companion models: none (section 9.9), rnnencdec (Cho et al. 2014), Luong and Bahdanau (9.10).

Every decoder has the same small interface, used by ``helpers.seq2seq.Seq2Seq``:

* ``init_state(encoder_outputs, encoder_state, src_mask) -> DecoderState``
* ``step(prev_tokens [B], state) -> (logits [B, V], weights [B, S] or None, new_state)`` — one
  decoding step; the state passed in is never modified, a new one is returned.
* ``forward(tgt_in [B, T], state) -> (logits [B, T, V], attention [B, T, S] or None)`` — teacher forcing.

**NoAttentionDecoder** (the 9.9 baseline): the initial state is the encoder's last state, which is all
the decoder ever learns about the source (the information bottleneck of section 9.10).

**RNNEncDecDecoder** (the second baseline, Cho et al. 2014's RNN Encoder-Decoder, which Bahdanau et al.
2014 call RNNencdec): the encoder's summary vector c is fed to *every* decoder step and to the output layer,
not only to s_0. Still no attention: c is one fixed vector whatever the sentence length.

**LuongDecoder** (Luong et al. 2015; the 4 steps of Fig. 9-25). The RNN first computes h_t, then

1. Eq. (9-37)  α_t = softmax(score(h_t, h̄_s)) over the valid source positions (dot/general/concat, Eq. 9-40)
2. Eq. (9-38)  c_t = Σ_s α_ts h̄_s
3. Eq. (9-39)  h̃_t = tanh(W_c [c_t; h_t]);  output distribution softmax(W_s h̃_t)
4. input feeding (optional): h̃_t is concatenated to the next input embedding.

``local_window=D`` (extra, Luong et al. 2015 §3.2) replaces the global attention of step ① by local-p
attention (``helpers.attention.LocalAttention``): a predicted centre p_t and a Gaussian window of radius D.

Without input feeding h_t does not depend on the attention, so teacher-forced ``forward`` runs the RNN
over the whole target once and does steps 1-3 for all t in one batched computation (no Python loop
over time). With input feeding it loops over time (``helpers.speedups.teacher_forcing``: the same formulas as
``step``, with what does not depend on t computed once).

**BahdanauDecoder** (Bahdanau et al. 2015): the query is the *previous* state s_{t-1}; additive score
(Eq. 9-40); c_t is concatenated to the RNN input: s_t = RNN([e(y_{t-1}); c_t], s_{t-1}). Output layer
(a simplification of the paper's maxout layer): t̃_t = tanh(W_o [s_t; c_t; e(y_{t-1})]),
logits = W_s t̃_t. Teacher forcing loops over time (``helpers.speedups.teacher_forcing.bahdanau_forward``).

Dimension letters: B batch, S source length, T target length, E embedding, H hidden, V vocabulary,
L layers. "top layer" means the last RNN layer; its state is the h_t / s_t of the formulas.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import torch
from torch import nn

from helpers.attention import Attention, LocalAttention, attention_vector
from helpers.runtime.errors import HelpersError
from helpers.speedups.teacher_forcing import bahdanau_forward, luong_feeding_forward

__all__ = [
    "RNN_TYPES",
    "StepCell",
    "BahdanauDecoder",
    "DecoderState",
    "LuongDecoder",
    "NoAttentionDecoder",
    "RNNEncDecDecoder",
    "make_rnn",
    "run_steps",
    "top_layer",
]

RNN_TYPES = ("gru", "lstm")


def make_rnn(rnn: str, input_size: int, hidden_size: int, num_layers: int = 1, dropout: float = 0.0,
             bidirectional: bool = False) -> nn.RNNBase:
    """A batch-first nn.GRU or nn.LSTM (``rnn`` = "gru" | "lstm")."""
    if rnn not in RNN_TYPES:
        raise HelpersError(f"未知的循环网络类型 (unknown rnn): {rnn!r}。请选择 'gru' 或 'lstm'。")
    cls = nn.GRU if rnn == "gru" else nn.LSTM
    return cls(input_size, hidden_size, num_layers=num_layers, batch_first=True,
               dropout=dropout if num_layers > 1 else 0.0, bidirectional=bidirectional)


def top_layer(hidden) -> torch.Tensor:
    """The top-layer hidden state [B, H] of a GRU state [L, B, H] or an LSTM state (h, c)."""
    h = hidden[0] if isinstance(hidden, tuple) else hidden
    return h[-1]  # [B, H]


@dataclass
class DecoderState:
    """Everything a decoder needs between two steps (returned by ``Seq2Seq.start`` and ``step``).

    encoder_outputs  [B, S, H]  h̄_1..h̄_S (Keys = Values); zeros at padding
    src_mask         [B, S]     bool, True = real source token
    hidden           [L, B, H]  decoder RNN state, or a tuple (h, c) for an LSTM
    attn_vector      [B, H]     the previous attention vector h̃_{t-1} (Luong; zeros before step 1),
                                None for the other decoders
    summary          [B, H]     the encoder's summary vector c (rnnencdec), None for the other decoders
    """

    encoder_outputs: torch.Tensor
    src_mask: torch.Tensor
    hidden: torch.Tensor | tuple
    attn_vector: torch.Tensor | None = None
    summary: torch.Tensor | None = None

    @property
    def batch_size(self) -> int:
        return self.encoder_outputs.shape[0]

    def index_select(self, idx: torch.Tensor) -> DecoderState:
        """Pick (and repeat / reorder) batch rows, e.g. for beam search. idx: long [B'] -> state of batch B'."""
        idx = torch.as_tensor(idx, dtype=torch.long, device=self.encoder_outputs.device)
        if idx.dim() != 1 or (idx.numel() and (int(idx.min()) < 0 or int(idx.max()) >= self.batch_size)):
            raise HelpersError(
                f"index_select 的下标不对 (bad row indices): 需要一维 long 张量，取值 0..{self.batch_size - 1}，"
                f"实际 (got) 形状 {list(idx.shape)}。"
            )
        if isinstance(self.hidden, tuple):
            hidden = tuple(h.index_select(1, idx) for h in self.hidden)  # each [L, B', H]
        else:
            hidden = self.hidden.index_select(1, idx)  # [L, B', H]
        return DecoderState(
            encoder_outputs=self.encoder_outputs.index_select(0, idx),  # [B', S, H]
            src_mask=self.src_mask.index_select(0, idx),  # [B', S]
            hidden=hidden,
            attn_vector=None if self.attn_vector is None else self.attn_vector.index_select(0, idx),  # [B', H]
            summary=None if self.summary is None else self.summary.index_select(0, idx),  # [B', H]
        )


def run_steps(decoder, tgt_in: torch.Tensor, state: DecoderState):
    """Teacher forcing by calling ``decoder.step`` once per target position (the step-by-step path).

    tgt_in [B, T] -> logits [B, T, V], attention [B, T, S] or None.
    """
    all_logits, all_weights = [], []
    for t in range(tgt_in.shape[1]):
        logits, weights, state = decoder.step(tgt_in[:, t], state)  # [B, V], [B, S]
        all_logits.append(logits)
        all_weights.append(weights)
    logits = torch.stack(all_logits, dim=1)  # [B, T, V]
    attention = None if all_weights[0] is None else torch.stack(all_weights, dim=1)  # [B, T, S]
    return logits, attention


class NoAttentionDecoder(nn.Module):
    """Section 9.9 baseline: s_0 = encoder's last state, s_t = RNN(e(y_{t-1}), s_{t-1}), logits = W_s s_t."""

    def __init__(self, vocab_size: int, emb_size: int, hidden_size: int, num_layers: int = 1,
                 rnn: str = "gru", dropout: float = 0.0, pad_id: int = 0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_size, padding_idx=pad_id)
        self.rnn = make_rnn(rnn, emb_size, hidden_size, num_layers, dropout)
        self.W_s = nn.Linear(hidden_size, vocab_size)  # output layer
        self.dropout = nn.Dropout(dropout)

    def init_state(self, encoder_outputs, encoder_state, src_mask) -> DecoderState:
        return DecoderState(encoder_outputs, src_mask, encoder_state)

    def forward(self, tgt_in: torch.Tensor, state: DecoderState):
        emb = self.dropout(self.embedding(tgt_in))  # [B, T, E]
        s, _ = self.rnn(emb, state.hidden)  # [B, T, H]
        return self.W_s(self.dropout(s)), None  # [B, T, V]

    def step(self, prev_tokens: torch.Tensor, state: DecoderState):
        emb = self.dropout(self.embedding(prev_tokens))  # [B, E]
        s, hidden = self.rnn(emb[:, None, :], state.hidden)  # [B, 1, H]
        logits = self.W_s(self.dropout(s[:, 0]))  # [B, V]
        return logits, None, replace(state, hidden=hidden)


class RNNEncDecDecoder(nn.Module):
    """Second baseline (RNNencdec): the summary vector c goes into every step and into the output layer.

    c = the top layer of the encoder's final state (for the bidirectional encoder tanh(W_h [→h_S; ←h_1])),
    s_0 = the encoder's final state (as in ``none``), then for every t

        s_t = RNN([e(y_{t-1}); c], s_{t-1}),   t̃_t = tanh(W_o [s_t; e(y_{t-1}); c]),   logits = W_s t̃_t.

    How this maps to Cho et al. (2014), §2.2: their decoder state h⟨t⟩ = f(h⟨t−1⟩, y_{t−1}, c) is our s_t
    (c enters the GRU as part of its input, so every gate sees it, where Cho et al. give c its own
    matrices C, C_z, C_r: the same linear map, written as one concatenated input); their output
    P(y_t | y_{t−1}, …, y_1, c) = g(h⟨t⟩, y_{t−1}, c) is our softmax(W_s t̃_t) with the maxout layer of
    their Appendix A replaced by tanh (as in our Bahdanau decoder). Their initial state tanh(V′ c) is our
    s_0 = c itself (no extra V′). Bahdanau et al. (2014) use this model, RNNencdec, as the baseline of
    their Fig. 2. It returns no attention; c does not change with t, so teacher forcing runs the RNN
    over the whole target in one call.
    """

    def __init__(self, vocab_size: int, emb_size: int, hidden_size: int, num_layers: int = 1,
                 rnn: str = "gru", dropout: float = 0.0, pad_id: int = 0):
        super().__init__()
        H = hidden_size
        self.embedding = nn.Embedding(vocab_size, emb_size, padding_idx=pad_id)
        self.rnn = make_rnn(rnn, emb_size + H, H, num_layers, dropout)  # input [e(y_{t-1}); c]
        self.W_o = nn.Linear(2 * H + emb_size, H)  # output layer on [s_t; e(y_{t-1}); c]
        self.W_s = nn.Linear(H, vocab_size)
        self.dropout = nn.Dropout(dropout)

    def init_state(self, encoder_outputs, encoder_state, src_mask) -> DecoderState:
        c = top_layer(encoder_state)  # [B, H]  the summary vector
        return DecoderState(encoder_outputs, src_mask, encoder_state, summary=c)

    def _output(self, s: torch.Tensor, e: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
        t_tilde = torch.tanh(self.W_o(torch.cat([s, e, c], dim=-1)))  # [.., H]
        return self.W_s(self.dropout(t_tilde))  # [.., V]

    def forward(self, tgt_in: torch.Tensor, state: DecoderState):
        e = self.dropout(self.embedding(tgt_in))  # [B, T, E]
        c = state.summary[:, None, :].expand(-1, tgt_in.shape[1], -1)  # [B, T, H]  the same c at every t
        s, _ = self.rnn(torch.cat([e, c], dim=-1), state.hidden)  # [B, T, H]  one RNN call for all t
        return self._output(s, e, c), None  # [B, T, V]

    def step(self, prev_tokens: torch.Tensor, state: DecoderState):
        e = self.dropout(self.embedding(prev_tokens))  # [B, E]
        c = state.summary  # [B, H]
        s, hidden = self.rnn(torch.cat([e, c], dim=-1)[:, None, :], state.hidden)  # [B, 1, H]
        return self._output(s[:, 0], e, c), None, replace(state, hidden=hidden)  # [B, V]


class LuongDecoder(nn.Module):
    """Luong attention decoder: h_t first, then Eq. (9-37), (9-38), (9-39), softmax(W_s h̃_t). Fig. 9-25.

    score: "dot" | "general" | "concat" (Eq. 9-40). input_feeding: step ④, h̃_{t-1} joins the input.
    local_window: None (global attention) or D, the radius of a local-p window (extras (E4), (E5)).
    """

    def __init__(self, vocab_size: int, emb_size: int, hidden_size: int, num_layers: int = 1,
                 rnn: str = "gru", score: str = "general", input_feeding: bool = False,
                 dropout: float = 0.0, pad_id: int = 0, local_window: int | None = None):
        super().__init__()
        H = hidden_size
        self.input_feeding = input_feeding
        self.embedding = nn.Embedding(vocab_size, emb_size, padding_idx=pad_id)
        self.rnn = make_rnn(rnn, emb_size + (H if input_feeding else 0), H, num_layers, dropout)
        if local_window is None:
            self.attention = Attention(score, query_size=H, key_size=H, hidden=H)  # Eq. (9-37), (9-38), (9-40)
        else:  # local-p: the same score inside a predicted window (its result also carries p_t)
            self.attention = LocalAttention(score, window=local_window, mode="p", query_size=H, key_size=H, hidden=H)
        self.W_c = nn.Linear(2 * H, H, bias=False)  # Eq. (9-39), acts on [c_t; h_t]
        self.W_s = nn.Linear(H, vocab_size)  # output layer softmax(W_s h̃_t)
        self.dropout = nn.Dropout(dropout)

    def init_state(self, encoder_outputs, encoder_state, src_mask) -> DecoderState:
        B, _, H = encoder_outputs.shape
        h_tilde0 = encoder_outputs.new_zeros(B, H)  # [B, H]  h̃_0 = 0 for input feeding
        return DecoderState(encoder_outputs, src_mask, encoder_state, h_tilde0)

    def attend(self, h: torch.Tensor, state: DecoderState):
        """Steps ①-③ for h [B, T, H] (all steps at once) or [B, H] (one step).

        Returns logits [.., V], weights α [.., S], attention vectors h̃ [.., H].
        """
        r = self.attention(h, state.encoder_outputs, mask=state.src_mask)  # ① α [.., S], ② c [.., H]
        h_tilde = attention_vector(r.context, h, self.W_c.weight)  # ③ tanh(W_c [c_t; h_t])  [.., H]
        logits = self.W_s(self.dropout(h_tilde))  # [.., V]
        return logits, r.weights, h_tilde

    def forward(self, tgt_in: torch.Tensor, state: DecoderState):
        if self.input_feeding:  # h_t needs h̃_{t-1}: step by step
            return luong_feeding_forward(self, tgt_in, state)
        emb = self.dropout(self.embedding(tgt_in))  # [B, T, E]
        h, _ = self.rnn(emb, state.hidden)  # [B, T, H]  h_t for every t, one RNN call
        logits, weights, _ = self.attend(h, state)  # [B, T, V], [B, T, S]  batched over all t
        return logits, weights

    def step(self, prev_tokens: torch.Tensor, state: DecoderState):
        x = self.dropout(self.embedding(prev_tokens))  # [B, E]
        if self.input_feeding:
            x = torch.cat([x, state.attn_vector], dim=-1)  # ④ [B, E + H]
        out, hidden = self.rnn(x[:, None, :], state.hidden)  # [B, 1, H]
        logits, weights, h_tilde = self.attend(out[:, 0], state)  # [B, V], [B, S], [B, H]
        return logits, weights, replace(state, hidden=hidden, attn_vector=h_tilde)


class BahdanauDecoder(nn.Module):
    """Bahdanau attention decoder: query s_{t-1}, additive score (Eq. 9-40), c_t fed into the RNN.

    α_t = softmax(v_aᵀ tanh(W_q s_{t-1} + W_k h̄_s)), c_t = Σ α_ts h̄_s,
    s_t = RNN([e(y_{t-1}); c_t], s_{t-1}), t̃_t = tanh(W_o [s_t; c_t; e(y_{t-1})]), logits = W_s t̃_t.
    """

    def __init__(self, vocab_size: int, emb_size: int, hidden_size: int, num_layers: int = 1,
                 rnn: str = "gru", dropout: float = 0.0, pad_id: int = 0):
        super().__init__()
        H = hidden_size
        self.embedding = nn.Embedding(vocab_size, emb_size, padding_idx=pad_id)
        self.attention = Attention("additive", query_size=H, key_size=H, hidden=H)
        self.rnn = make_rnn(rnn, emb_size + H, H, num_layers, dropout)
        self.W_o = nn.Linear(2 * H + emb_size, H)  # output layer on [s_t; c_t; e(y_{t-1})]
        self.W_s = nn.Linear(H, vocab_size)
        self.dropout = nn.Dropout(dropout)

    def init_state(self, encoder_outputs, encoder_state, src_mask) -> DecoderState:
        return DecoderState(encoder_outputs, src_mask, encoder_state)

    def forward(self, tgt_in: torch.Tensor, state: DecoderState):
        return bahdanau_forward(self, tgt_in, state)  # the query s_{t-1} depends on the previous step

    def step(self, prev_tokens: torch.Tensor, state: DecoderState):
        e = self.dropout(self.embedding(prev_tokens))  # [B, E]
        s_prev = top_layer(state.hidden)  # [B, H]  s_{t-1}
        r = self.attention(s_prev, state.encoder_outputs, mask=state.src_mask)  # α [B, S], c [B, H]
        out, hidden = self.rnn(torch.cat([e, r.context], dim=-1)[:, None, :], state.hidden)  # [B, 1, H]
        s_t = out[:, 0]  # [B, H]
        t_tilde = torch.tanh(self.W_o(torch.cat([s_t, r.context, e], dim=-1)))  # [B, H]
        logits = self.W_s(self.dropout(t_tilde))  # [B, V]
        return logits, r.weights, replace(state, hidden=hidden)


class StepCell:
    """A GRU cell with fixed weights from a private generator: ``cell(x [B, In], h [B, H]) -> [B, H]``.

    The RNN of one hand-written decoding step (notebook 05's Luong and Bahdanau step exercises). It checks
    the shapes it is given and says which input is wrong. It lives here, outside ``helpers.exercises``, so
    the teachers' grader can hand it to a student's function in its sandbox process.
    """

    def __init__(self, seed: int, input_size: int, hidden_size: int, what: str):
        with torch.random.fork_rng(devices=[]):  # the student's global random state stays as it was
            torch.manual_seed(seed)
            self._gru = torch.nn.GRUCell(input_size, hidden_size)
        self.input_size, self.hidden_size, self._what = input_size, hidden_size, what

    def __call__(self, x, h):
        if not isinstance(x, torch.Tensor) or x.dim() != 2 or x.shape[1] != self.input_size:
            got = list(x.shape) if isinstance(x, torch.Tensor) else type(x).__name__
            raise ValueError(f"cell 的输入 x 应为 {self._what}，形状 [B, {self.input_size}]，实际为 {got}")
        if not isinstance(h, torch.Tensor) or list(h.shape) != [x.shape[0], self.hidden_size]:
            got = list(h.shape) if isinstance(h, torch.Tensor) else type(h).__name__
            raise ValueError(f"cell 的状态 h 应为 [B, {self.hidden_size}]，实际为 {got}")
        with torch.no_grad():
            return self._gru(x.float(), h.float())

    def __repr__(self) -> str:
        return f"cell(x [B, {self.input_size}], h [B, {self.hidden_size}]) -> [B, {self.hidden_size}]"
