"""Encoder and the Seq2Seq model with a choice of decoder (sections 9.9 and 9.10, Fig. 9-25).

* ``Encoder``: embedding + GRU/LSTM over the source, packed so that padding never reaches a state.
  Bidirectional: h̄_s = W_p [→h_s; ←h_s] (back to H) and the decoder's initial state per layer is
  s_0 = tanh(W_h [→h_S; ←h_1]) (the LSTM cell state uses W_m, without tanh).
* ``Seq2Seq(variant, ...)`` with variant "none" (9.9 baseline: the source only through s_0), "rnnencdec"
  (second baseline, Cho et al. 2014: the summary vector c fed to every step), "bahdanau", "luong-dot",
  "luong-general", "luong-concat" (Eq. 9-37..9-40; see ``helpers.decoders`` for the decoders).

Training (teacher forcing)::

    logits, attention = model(src, src_lens, tgt_in)      # [B, T, V], [B, T, S] or None

Decoding, one step at a time (what greedy / beam search build on)::

    state = model.start(src, src_lens)                     # encoder run once; a DecoderState
    logits, attn, state = model.step(prev_tokens, state)   # [B, V], [B, S] or None, new state
    state = state.index_select(rows)                       # keep / repeat / reorder batch rows (beams)

``step`` gives exactly the logits of ``forward`` (``forward_stepwise`` runs that loop for you).
``model.config`` is a JSON-able dict; ``Seq2Seq.from_config(config)`` rebuilds the same architecture.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from helpers.decoders import (
    RNN_TYPES,
    BahdanauDecoder,
    DecoderState,
    LuongDecoder,
    NoAttentionDecoder,
    RNNEncDecDecoder,
    make_rnn,
    run_steps,
)
from helpers.runtime.errors import HelpersError, ShapeError

__all__ = ["NO_ATTENTION", "VARIANTS", "DecoderState", "Encoder", "Seq2Seq", "lengths_to_mask"]

VARIANTS = ("none", "rnnencdec", "bahdanau", "luong-dot", "luong-general", "luong-concat")
NO_ATTENTION = ("none", "rnnencdec")  # the two baselines: no attention matrix


def lengths_to_mask(lengths: torch.Tensor, max_len: int) -> torch.Tensor:
    """[B] lengths -> bool mask [B, max_len], True at the first ``length`` positions."""
    return torch.arange(max_len, device=lengths.device)[None, :] < lengths[:, None]  # [B, S]


class Encoder(nn.Module):
    """Embedding + GRU/LSTM. forward(src [B, S], src_lens [B]) -> (outputs [B, S, H], state, src_mask [B, S]).

    ``state`` is [L, B, H] (GRU) or a tuple (h, c) (LSTM), ready to initialise a decoder with the same
    number of layers. Outputs at padding positions are zero.

    A one-layer GRU (every shipped model) runs on the padded batch instead of a PackedSequence
    (``_padded_gru``): same numbers, but torch's packed RNN backward fills a zero tensor of the whole
    packed input at every time step (quadratic in the length: 30 % of the encoder's time at S = 35).
    ``Encoder.padded_gru = False`` takes the packed path everywhere (``helpers.tools.train_speed``
    measures the two side by side).
    """

    padded_gru = True

    def __init__(self, vocab_size: int, emb_size: int, hidden_size: int, num_layers: int = 1,
                 rnn: str = "gru", bidirectional: bool = False, dropout: float = 0.0, pad_id: int = 0):
        super().__init__()
        H = hidden_size
        self.bidirectional, self.num_layers = bidirectional, num_layers
        self.embedding = nn.Embedding(vocab_size, emb_size, padding_idx=pad_id)
        self.rnn = make_rnn(rnn, emb_size, H, num_layers, dropout, bidirectional)
        self.dropout = nn.Dropout(dropout)
        if bidirectional:
            self.W_p = nn.Linear(2 * H, H)  # h̄_s = W_p [→h_s; ←h_s]
            self.W_h = nn.Linear(2 * H, H)  # s_0 = tanh(W_h [→h_S; ←h_1])
            if rnn == "lstm":
                self.W_m = nn.Linear(2 * H, H)  # LSTM cell: m_0 = W_m [→m_S; ←m_1]

    def _merge_directions(self, h: torch.Tensor, W: nn.Linear, squash: bool) -> torch.Tensor:
        L2, B, H = h.shape
        h = h.view(self.num_layers, 2, B, H)  # [L, 2, B, H]  (forward, backward) per layer
        merged = W(torch.cat([h[:, 0], h[:, 1]], dim=-1))  # [L, B, H]
        return torch.tanh(merged) if squash else merged

    def _padded_gru(self, emb: torch.Tensor, src_lens: torch.Tensor, src_mask: torch.Tensor):
        """What the packed one-layer GRU gives, from the padded batch: outputs [B, S, dirs * H] (zeros at
        padding) and final states [dirs, B, H].

        Forward direction: padding comes after the real tokens, so the outputs there are right and the
        final state is the output at the last real token. Backward direction: each sentence is reversed
        within its own length (padding stays at the end), run forwards with the reverse weights, and
        put back in source order; its final state ←h_1 is then the output at position 0.
        """
        rnn, (B, S, _) = self.rnn, emb.shape
        last = src_lens - 1  # [B]
        rows = torch.arange(B, device=emb.device)
        keep = src_mask[:, :, None].to(emb.dtype)  # [B, S, 1]

        def run(x, suffix):  # one direction of self.rnn (its own weights) over x [B, S, E] from h_0 = 0
            params = [getattr(rnn, f"{n}_l0{suffix}") for n in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
            h0 = x.new_zeros(1, B, rnn.hidden_size)
            return torch._VF.gru(x, h0, params, True, 1, 0.0, self.training, False, True)[0]  # [B, S, H]

        fwd = run(emb, "")
        outs, finals = [fwd * keep], [fwd[rows, last]]  # →h_s, →h_S
        if rnn.bidirectional:
            pos = torch.arange(S, device=emb.device)[None, :]  # [1, S]
            rev = torch.where(src_mask, last[:, None] - pos, pos)[:, :, None]  # [B, S, 1] an involution
            bwd = run(emb.gather(1, rev.expand_as(emb)), "_reverse")  # sentence reversed
            bwd = bwd.gather(1, rev.expand(-1, -1, bwd.shape[-1]))  # back in source order: ←h_s
            outs.append(bwd * keep)
            finals.append(bwd[:, 0])  # ←h_1
        return torch.cat(outs, dim=-1), torch.stack(finals)

    def forward(self, src: torch.Tensor, src_lens: torch.Tensor):
        B, S = src.shape
        src_mask = lengths_to_mask(src_lens, S)  # [B, S]
        emb = self.dropout(self.embedding(src))  # [B, S, E]
        if self.padded_gru and isinstance(self.rnn, nn.GRU) and self.num_layers == 1 and self.rnn.bias:
            out, state = self._padded_gru(emb, src_lens, src_mask)  # [B, S, dirs * H], [dirs, B, H]
        else:
            packed = pack_padded_sequence(emb, src_lens.cpu(), batch_first=True, enforce_sorted=False)
            out, state = self.rnn(packed)  # state: [L * dirs, B, H] (or a tuple for an LSTM)
            out, _ = pad_packed_sequence(out, batch_first=True, total_length=S)  # [B, S, dirs * H]
        if self.bidirectional:
            out = self.W_p(out) * src_mask[:, :, None].to(out.dtype)  # [B, S, H], zeros at padding
            if isinstance(state, tuple):
                state = (self._merge_directions(state[0], self.W_h, True),
                         self._merge_directions(state[1], self.W_m, False))  # [L, B, H] each
            else:
                state = self._merge_directions(state, self.W_h, True)  # [L, B, H]
        return out, state, src_mask


# --------------------------------------------------------------------------- input checks
def _bad(message: str) -> ShapeError:
    return ShapeError(message)


def _check_tokens(x, what: str, ndim: int, expected: str, vocab_size: int) -> torch.Tensor:
    if not isinstance(x, torch.Tensor):
        raise HelpersError(f"{what} 必须是 torch.Tensor (must be a tensor)，实际 (got) {type(x).__name__}。"
                           f"请用 torch.tensor(ids, dtype=torch.long)。")
    if x.dtype.is_floating_point or x.dtype == torch.bool or x.is_complex():
        raise HelpersError(f"{what} 必须是整数词编号 (integer token ids, torch.long)，实际 (got) {x.dtype}。")
    if x.dim() != ndim:
        raise _bad(f"{what} 的形状不对 (wrong shape): 期望 (expected) {expected}，实际 (got) {list(x.shape)}。"
                   f"一个句子也要有批次维 (batch dim)，例如 ids.unsqueeze(0)。")
    if x.numel() and (int(x.min()) < 0 or int(x.max()) >= vocab_size):
        raise HelpersError(f"{what} 中有超出词表的编号 (token id out of range): 取值应在 0..{vocab_size - 1}，"
                           f"实际 (got) {int(x.min())}..{int(x.max())}。请检查是否用了正确的词表 (vocabulary)。")
    return x.long()


def _check_lens(src_lens, B: int, S: int) -> torch.Tensor:
    if not isinstance(src_lens, torch.Tensor):
        src_lens = torch.as_tensor(src_lens)
    if src_lens.dtype.is_floating_point or src_lens.dim() != 1 or src_lens.shape[0] != B:
        raise _bad(f"src_lens 的形状不对 (wrong shape): 期望 (expected) 整数 [B={B}]，"
                   f"实际 (got) {list(src_lens.shape)} {src_lens.dtype}。每个源句子一个长度。")
    if B and (int(src_lens.min()) < 1 or int(src_lens.max()) > S):
        raise HelpersError(f"src_lens 与 src 不一致 (inconsistent lengths): 每个长度应在 1..{S} 之间，"
                           f"实际 (got) {src_lens.tolist()}。长度不含填充 (padding)，且不能为 0。")
    return src_lens.long()


class Seq2Seq(nn.Module):
    """Encoder + decoder of the chosen variant; see the module docstring for the call patterns.

    variant: "none" | "rnnencdec" | "bahdanau" | "luong-dot" | "luong-general" | "luong-concat".
    input_feeding: only for Luong variants (step ④). Encoder and decoder share hidden_size, num_layers, rnn.
    scaled_score: luong-dot / luong-general divide the score by sqrt(H) (extra; scaled dot product).
    local_window: None (global attention) or D, Luong variants only: local-p attention with a window of
    radius D (extra, Luong et al. 2015 §3.2; ``helpers.attention.LocalAttention``). The key
    ``local_window`` is in ``config`` only when it is set, so global models keep the config they had.
    """

    def __init__(self, variant: str, src_vocab_size: int, tgt_vocab_size: int, emb_size: int = 64,
                 hidden_size: int = 128, num_layers: int = 1, rnn: str = "gru", bidirectional: bool = False,
                 input_feeding: bool = False, dropout: float = 0.0, pad_id: int = 0, scaled_score: bool = False,
                 local_window: int | None = None):
        super().__init__()
        if variant not in VARIANTS:
            raise HelpersError(f"未知的模型类型 (unknown variant): {variant!r}。请从 {list(VARIANTS)} 中选择。")
        if rnn not in RNN_TYPES:
            raise HelpersError(f"未知的循环网络类型 (unknown rnn): {rnn!r}。请选择 'gru' 或 'lstm'。")
        if input_feeding and not variant.startswith("luong"):
            raise HelpersError(f"输入馈送 (input feeding) 只用于 Luong 模型，不能用于 {variant!r}。"
                               f"请去掉 input_feeding=True，或选择 'luong-…'。")
        if local_window is not None and (not variant.startswith("luong") or isinstance(local_window, bool)
                                         or not isinstance(local_window, int) or local_window < 1):
            raise HelpersError(f"局部注意力 (local_window) 只用于 Luong 模型，且应为正整数 (an int ≥ 1)，"
                               f"实际 (got) variant={variant!r}, local_window={local_window!r}。"
                               f"例如 make_model('luong-general', local_window=2)。")
        self.config = {
            "variant": variant, "src_vocab_size": int(src_vocab_size), "tgt_vocab_size": int(tgt_vocab_size),
            "emb_size": int(emb_size), "hidden_size": int(hidden_size), "num_layers": int(num_layers),
            "rnn": rnn, "bidirectional": bool(bidirectional), "input_feeding": bool(input_feeding),
            "dropout": float(dropout), "pad_id": int(pad_id), "scaled_score": bool(scaled_score),
        }
        if local_window is not None:
            self.config["local_window"] = int(local_window)
        self.variant = variant
        self.src_vocab_size, self.tgt_vocab_size = int(src_vocab_size), int(tgt_vocab_size)
        common = dict(num_layers=num_layers, rnn=rnn, dropout=dropout, pad_id=pad_id)
        self.encoder = Encoder(src_vocab_size, emb_size, hidden_size, bidirectional=bidirectional, **common)
        if variant == "none":
            self.decoder = NoAttentionDecoder(tgt_vocab_size, emb_size, hidden_size, **common)
        elif variant == "rnnencdec":
            self.decoder = RNNEncDecDecoder(tgt_vocab_size, emb_size, hidden_size, **common)
        elif variant == "bahdanau":
            self.decoder = BahdanauDecoder(tgt_vocab_size, emb_size, hidden_size, **common)
        else:
            score = variant.split("-", 1)[1]
            if scaled_score and score in ("dot", "general"):
                score = "scaled_" + score  # score / sqrt(H): see helpers.tools.pretrain, "luong-general"
            self.decoder = LuongDecoder(tgt_vocab_size, emb_size, hidden_size, score=score,
                                        input_feeding=input_feeding, local_window=local_window, **common)

    @classmethod
    def from_config(cls, config: dict) -> Seq2Seq:
        """Rebuild a model (fresh weights) from ``model.config``."""
        if not isinstance(config, dict) or "variant" not in config:
            raise HelpersError("配置不对 (bad config): 需要 model.config 那样的字典，至少含 'variant'。")
        known = {"variant", "src_vocab_size", "tgt_vocab_size", "emb_size", "hidden_size", "num_layers",
                 "rnn", "bidirectional", "input_feeding", "dropout", "pad_id", "scaled_score", "local_window"}
        unknown = sorted(set(config) - known)
        if unknown:
            raise HelpersError(f"配置中有未知的键 (unknown config keys): {unknown}。可用的键: {sorted(known)}。")
        return cls(**config)

    @property
    def has_attention(self) -> bool:
        return self.variant not in NO_ATTENTION

    # ----------------------------------------------------------------------- checks
    def _check_src(self, src, src_lens):
        src = _check_tokens(src, "src", 2, "[B, S]", self.src_vocab_size)
        src_lens = _check_lens(src_lens, src.shape[0], src.shape[1]).to(src.device)
        return src, src_lens

    # ----------------------------------------------------------------------- public API
    def start(self, src: torch.Tensor, src_lens: torch.Tensor) -> DecoderState:
        """Run the encoder and return the decoder's initial DecoderState (batch B)."""
        src, src_lens = self._check_src(src, src_lens)
        outputs, enc_state, src_mask = self.encoder(src, src_lens)  # [B, S, H], state, [B, S]
        return self.decoder.init_state(outputs, enc_state, src_mask)

    def step(self, prev_tokens: torch.Tensor, state: DecoderState):
        """One decoding step: prev_tokens [B] (the previous target tokens, e.g. BOS at first).

        Returns logits [B, V] (unnormalised), attention weights [B, S] (None for "none" / "rnnencdec") and the new
        state. The old state is left unchanged, so a search may keep it.
        """
        if not isinstance(state, DecoderState):
            raise HelpersError("state 必须来自 model.start(...) 或 model.step(...) (must be a DecoderState)。")
        prev_tokens = _check_tokens(prev_tokens, "prev_tokens", 1, "[B]", self.tgt_vocab_size)
        if prev_tokens.shape[0] != state.batch_size:
            raise _bad(f"prev_tokens 的形状不对 (wrong shape): 期望 (expected) [B={state.batch_size}]，"
                       f"实际 (got) {list(prev_tokens.shape)}。")
        return self.decoder.step(prev_tokens, state)

    def forward(self, src: torch.Tensor, src_lens: torch.Tensor, tgt_in: torch.Tensor):
        """Teacher forcing: src [B, S], src_lens [B], tgt_in [B, T] -> logits [B, T, V], attention [B, T, S] or None."""
        state = self.start(src, src_lens)
        tgt_in = self._check_tgt(tgt_in, state.batch_size)
        return self.decoder(tgt_in, state)

    def forward_stepwise(self, src: torch.Tensor, src_lens: torch.Tensor, tgt_in: torch.Tensor):
        """Like ``forward`` but always through ``step`` in a Python loop (reference / benchmark path)."""
        state = self.start(src, src_lens)
        tgt_in = self._check_tgt(tgt_in, state.batch_size)
        return run_steps(self.decoder, tgt_in, state)

    def _check_tgt(self, tgt_in, B: int) -> torch.Tensor:
        tgt_in = _check_tokens(tgt_in, "tgt_in", 2, "[B, T]", self.tgt_vocab_size)
        if tgt_in.shape[0] != B or tgt_in.shape[1] == 0:
            raise _bad(f"tgt_in 的形状不对 (wrong shape): 期望 (expected) [B={B}, T>=1]，"
                       f"实际 (got) {list(tgt_in.shape)}。目标与源的批次大小 (batch size) 必须相同。")
        return tgt_in
