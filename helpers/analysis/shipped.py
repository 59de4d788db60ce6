"""What notebook 06 reads out of ``metrics.json`` (the shipped models' precomputed evaluation), as numbers and lines.

``shipped_summary(record)`` -> ``ShippedSummary``: the attention models (all but the no-attention
baselines), their lead over ``none`` on test and on long, the softness of their attention (mean max-α,
entropy), char-BLEU per length group (``inside`` = the groups from test, ``beyond`` = from long), the
learner-sentence scores, and ``lines``, the printout of notebook 06 §3.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["ShippedSummary", "shipped_summary"]


@dataclass
class ShippedSummary:
    attention_models: list[str]
    gap_test: dict[str, float]  # test char-BLEU minus none's
    gap: dict[str, float]  # long char-BLEU minus none's
    max_alpha: dict[str, float]
    entropy: dict[str, float]
    inside: list[str]  # length groups taken from test (within the training lengths)
    beyond: list[str]  # length groups taken from long
    by_len: dict[str, dict[str, float]]  # model -> group -> char-BLEU
    learner: dict[str, dict]
    lines: list[str] = field(default_factory=list)


def shipped_summary(record: dict) -> ShippedSummary:
    """Read the comparison of notebook 06 §3 out of a ``metrics.json`` record (``load_metrics()``)."""
    from helpers.seq2seq import NO_ATTENTION

    m = record["models"]
    attention = [name for name in m if name not in NO_ATTENTION]  # none, rnnencdec: no attention matrix
    bleu = lambda name, split: m[name][split]["char_bleu"]  # noqa: E731
    gap_test = {n: bleu(n, "test") - bleu("none", "test") for n in attention}
    gap = {n: bleu(n, "long") - bleu("none", "long") for n in attention}
    max_alpha = {n: m[n]["test"]["max_alpha"] for n in attention}
    entropy = {n: m[n]["test"]["entropy"] for n in attention}
    inside = [b for b in record["buckets"] if record["bucket_split"][b] == "test"]
    beyond = [b for b in record["buckets"] if record["bucket_split"][b] == "long"]
    by_len = {n: {b: m[n]["by_length"][b]["char_bleu"] for b in record["buckets"]} for n in m}
    learner = {n: m[n]["learner"] for n in m}
    best_beyond = {b: max(attention, key=lambda n: by_len[n][b]) for b in beyond}
    r3 = lambda d: {k: round(v, 3) for k, v in d.items()}  # noqa: E731
    lines = [
        f"test char-BLEU 比 none 高出: {r3(gap_test)}",
        f"long char-BLEU 比 none 高出: {r3(gap)}",
        f"rnnencdec 比 none 高出: test {bleu('rnnencdec', 'test') - bleu('none', 'test'):.3f} | "
        f"long {bleu('rnnencdec', 'long') - bleu('none', 'long'):.3f}",
        f"最软 (softest): {min(max_alpha, key=max_alpha.get)} | 最硬 (hardest): {max(max_alpha, key=max_alpha.get)}",
        f"训练长度以内 (3–40)，注意力模型最低的一格: {min(by_len[n][b] for n in attention for b in inside):.3f} | "
        f"none: {r3(by_len['none'])} | rnnencdec: {r3(by_len['rnnencdec'])}",
        f"超出训练长度，最好的注意力模型: { {b: (n, round(by_len[n][b], 3)) for b, n in best_beyond.items()} }",
        f"学习者的句子 exact: { {n: r['exact'] for n, r in learner.items()} } | "
        f"within two: { {n: r['within_two'] for n, r in learner.items()} }",
        f"其中 20 个词以上的: { {n: (r['long_exact'], r['long_within_two']) for n, r in learner.items()} }",
    ]
    return ShippedSummary(attention, gap_test, gap, max_alpha, entropy, inside, beyond, by_len, learner, lines)
