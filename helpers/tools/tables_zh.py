"""The evaluation tables of a metrics record in Chinese, for the student (notebook 06).

``helpers.tools.models_doc.format_tables`` writes the maintainer's English tables (docs/models.md, the
terminal). A student reads the same numbers in Chinese: ``format_tables_zh(record)`` gives the overall
scores, char-BLEU by source length, a learner's own sentences and the error counts over whole test
sets, with Chinese headings (the English term once, in parentheses). The training wall time, which a
record does not keep, is left out rather than shown as a column of dashes.
"""

from __future__ import annotations

__all__ = ["ERROR_KINDS_ZH", "format_tables_zh"]

# the same labels as notebook 01's error table, so that a student reads one name for one count
ERROR_KINDS_ZH = (("fewer_clauses", "分句比参考译文少"), ("repeated_clause", "重复某个分句"), ("early_stop", "提前结束"),
                  ("no_eos", "一直不结束"), ("invented", "有参考译文里没有的词（含同义说法）"))


def _fmt(x, digits=3):
    return "—" if x is None else f"{x:.{digits}f}"


def _pct(x):
    return "—" if x is None else f"{100 * x:.0f} %"


def _overall(record) -> list[str]:
    lines = ["**总体（overall）**", "",
             "| 模型 | test char-BLEU | test 完全匹配 | novel char-BLEU | novel 完全匹配 | long char-BLEU | AER ↓ "
             "| mean max-α | 熵 | 参数个数 | 训练步数 |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in record["models"].items():
        t, tr, nv = r["test"], r.get("train") or {}, r.get("novel") or {}
        lines.append(f"| {name} | {_fmt(t['char_bleu'])} | {_fmt(t['exact_match'])} | {_fmt(nv.get('char_bleu'))} | "
                     f"{_fmt(nv.get('exact_match'))} | {_fmt(r['long']['char_bleu'])} | {_fmt(t['aer'])} | "
                     f"{_fmt(t.get('max_alpha'))} | {_fmt(t.get('entropy'), 2)} | {r.get('params', '—')} | "
                     f"{tr.get('steps', '—')} |")
    return lines


def _by_length(record) -> list[str]:
    buckets, split = record["buckets"], record.get("bucket_split") or {}
    heads = [f"{b} 词（{split[b]}）" if b in split else f"{b} 词" for b in buckets]
    lines = ["**按英文句长分桶的 char-BLEU**（括号里是这个桶的句子来自哪个子集）", "",
             "| 模型 | " + " | ".join(heads) + " |", "|---|" + "---|" * len(buckets)]
    first = next(iter(record["models"].values()), None)
    if first is not None:
        lines.append("| （句数） | " + " | ".join(str(first["by_length"][b]["n"]) for b in buckets) + " |")
    for name, r in record["models"].items():
        lines.append(f"| {name} | " + " | ".join(_fmt(r["by_length"][b]["char_bleu"]) for b in buckets) + " |")
    return lines


def _learner(record) -> list[str]:
    rows = {name: r["learner"] for name, r in record["models"].items() if r.get("learner")}
    if not rows:
        return []
    first = next(iter(rows.values()))
    lines = [f"**学习者自己写的句子**（共 {first['n']} 句，其中 {first['n_long']} 句有 20 个词以上；完全匹配 = 与某个参考译文"
             "相同，不计空格；相差两字以内 = 与最近的参考译文的字符编辑距离不超过 2；没有一个英文词的句子被拒绝，算错）", "",
             "| 模型 | 完全匹配 | 相差两字以内 | 20 词以上：完全匹配 | 20 词以上：相差两字以内 | 被拒绝 |",
             "|---|---|---|---|---|---|"]
    for name, r in rows.items():
        lines.append(f"| {name} | {_pct(r['exact'])} | {_pct(r['within_two'])} | {_pct(r['long_exact'])} | "
                     f"{_pct(r['long_within_two'])} | {len(r['unknown'])} |")
    return lines


def _errors(record) -> list[str]:
    rows = [(name, split, e) for name, r in record["models"].items() for split, e in (r.get("errors") or {}).items()]
    if not rows:
        return []
    lines = ["**整个子集上的错误类型**（句数；一句可以同时有几种错误；“有参考译文里没有的词”把同义的说法也算进去，"
             "是编造的词数的上限）", "",
             "| 模型 | 子集 | 句数 | " + " | ".join(label for _, label in ERROR_KINDS_ZH) + " |",
             "|---|---|---|" + "---|" * len(ERROR_KINDS_ZH)]
    for name, split, e in rows:
        lines.append(f"| {name} | {split} | {e['n']} | " + " | ".join(str(e[k]) for k, _ in ERROR_KINDS_ZH) + " |")
    return lines


def format_tables_zh(record: dict) -> str:
    """The Markdown tables of a metrics record with Chinese headings: overall, by length, learner, errors."""
    lines = _overall(record) + [""] + _by_length(record)
    for part in (_learner(record), _errors(record)):
        if part:
            lines += [""] + part
    return "\n".join(lines)
