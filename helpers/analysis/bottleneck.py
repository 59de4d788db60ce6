"""The bookkeeping behind notebook 01 (the information bottleneck): what the cells print, not model code.

* ``decoder_text(config)`` / ``model_rows(models)``  the table that compares the six shipped models
  (decoder and score, encoder, H, guided-alignment weight, steps, parameters), read from the models
* ``split_buckets(buckets, train_max)``  the length groups inside and beyond the training lengths
* ``by_bucket(buckets, values)``  one line "3-10: 0.74，11-20: 0.80，…" (differences keep their sign)
* ``length_summary(record, buckets, scores, train_max, attention)``  the lines under the BLEU-by-length
  figure and the numbers they are made of (the best attention model on ``long``, its leads)
* ``english(pair)``, ``extra_words(hyp, references)``, ``example_rows(models, labels, pair)``  the
  unpicked long examples: each model's output, its sentence char-BLEU, the words no reference has
* ``repeated_clauses(hyp, ref)``  clauses the output repeats more often than the reference
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

__all__ = ["LengthSummary", "by_bucket", "decoder_text", "english", "example_rows", "extra_words",
           "length_summary", "model_rows", "repeated_clauses", "split_buckets"]


def decoder_text(config: dict) -> str:
    """The decoder and its score function in words, from a model's config (as the table of 01 shows it)."""
    variant = config["variant"]
    if variant == "none":
        return "无注意力，只用 s_0（9.9 节）"
    if variant == "rnnencdec":
        return "无注意力，每一步都输入 c（RNNencdec）"
    if variant == "bahdanau":
        return "Bahdanau，加法打分"
    text = f"Luong，{variant.split('-')[1]} 打分" + ("，除以 √H" if config.get("scaled_score") else "")
    return text + ("，输入馈送" if config.get("input_feeding") else "")


def model_rows(models: dict) -> list[list]:
    """One row per model: name, decoder, encoder, H, align_weight, training steps, parameter count ("1,234")."""
    rows = []
    for name, model in models.items():
        recipe = model.meta["train"]["recipe"]
        rows.append([name, decoder_text(model.config), "双向 (bidirectional)" if model.config["bidirectional"] else "单向",
                     model.config["hidden_size"], recipe["align_weight"], recipe["steps"],
                     f"{sum(p.numel() for p in model.parameters()):,}"])
    return rows


def split_buckets(buckets, train_max: int) -> tuple[list[int], list[int]]:
    """Indices of the length groups (lo, hi) within the training lengths (hi ≤ train_max) and beyond (lo > train_max)."""
    inside = [k for k, (lo, hi) in enumerate(buckets) if hi <= train_max]
    beyond = [k for k, (lo, hi) in enumerate(buckets) if lo > train_max]
    return inside, beyond


def by_bucket(buckets, values) -> str:
    """One line "3-10: 0.74，11-20: 0.80，…"; a negative value is written with its sign."""
    return "，".join(f"{lo}-{hi}: {v:+.2f}" if v < 0 else f"{lo}-{hi}: {v:.2f}" for (lo, hi), v in zip(buckets, values))


@dataclass
class LengthSummary:
    """What the cell under the BLEU-by-length figure prints (``lines``) and the numbers behind it."""

    inside: list[int]
    beyond: list[int]
    best: str  # the attention model with the highest char-BLEU on the whole long split
    gap: list[float]  # best minus none, per length group
    gap_rnn: list[float]  # best minus rnnencdec, per length group
    lines: list[str] = field(default_factory=list)


def length_summary(record: dict, buckets, scores: dict, train_max: int, attention) -> LengthSummary:
    """Per length group: the two baselines, the best attention model on ``long`` and its leads over them."""
    inside, beyond = split_buckets(buckets, train_max)
    none, rnn = scores["none"], scores["rnnencdec"]
    long_bleu = {name: m["long"]["char_bleu"] for name, m in record["models"].items()}
    best = max(attention, key=long_bleu.get)
    gap = [a - b for a, b in zip(scores[best], none)]
    gap_rnn = [a - b for a, b in zip(scores[best], rnn)]
    early = [k for k in inside if buckets[k][1] <= 30]  # 3-30 words
    lines = [f"none：{by_bucket(buckets, none)}", f"rnnencdec：{by_bucket(buckets, rnn)}",
             f"{best}（long 上最好的注意力模型）：{by_bucket(buckets, scores[best])}",
             f"{best} 领先 none：{by_bucket(buckets, gap)}", f"{best} 领先 rnnencdec：{by_bucket(buckets, gap_rnn)}",
             "注意力模型在 3-30 词各组的最低分：" + "，".join(f"{m} {min(scores[m][k] for k in early):.2f}" for m in attention),
             "注意力模型在 31-40 词：" + "，".join(f"{m} {scores[m][inside[-1]]:.2f}" for m in attention),
             "注意力模型在 51-60 词：" + "，".join(f"{m} {scores[m][beyond[-1]]:.2f}" for m in attention),
             f"整个 long 测试集：{best} {long_bleu[best]:.2f}，rnnencdec {long_bleu['rnnencdec']:.2f}，"
             f"none {long_bleu['none']:.2f}"]
    return LengthSummary(inside, beyond, best, gap, gap_rnn, lines)


def english(pair) -> str:
    """The English sentence of a pair as a reader writes it: the possessive 's stays on its word."""
    return " ".join(pair.src).replace(" 's", "'s")


def extra_words(hyp, references) -> list[str]:
    """Words of the output (in order, once each) that none of the references contains: paraphrases count too."""
    known = set().union(*map(set, references))
    return [w for w in dict.fromkeys(hyp) if w not in known]


def example_rows(models: dict, labels: dict, pair) -> tuple[list[list], dict]:
    """Table rows for one example and each model's output tokens.

    Rows: the reference, then per model (label, its translation, sentence char-BLEU against every
    reference, the words no reference has or "无"). ``models`` and ``labels`` are keyed by model name."""
    import helpers
    from helpers.metrics import sentence_bleu

    rows, outputs = [["参考译文 (reference)", "".join(pair.tgt), "—", "—"]], {}
    for name, label in labels.items():
        out = helpers.translate(models[name], english(pair))
        outputs[name] = out.tgt_tokens
        bleu = sentence_bleu(out.text, [list(r) for r in pair.references])
        rows.append([label, out.text, bleu, "、".join(extra_words(out.tgt_tokens, pair.references)) or "无"])
    return rows, outputs


def repeated_clauses(hyp, ref) -> dict[str, int]:
    """Clauses (text → count) that occur at least twice in ``hyp`` and more often than in ``ref``.

    A clause is a run of tokens between ，。？！；： (``helpers.tools.scoring.clauses``, the same count as
    ``make evaluate``'s ``repeated_clause``)."""
    from helpers.tools.scoring import clauses

    h, r = Counter(clauses(hyp)), Counter(clauses(ref))
    return {"".join(c): n for c, n in h.items() if n >= 2 and n > r[c]}
