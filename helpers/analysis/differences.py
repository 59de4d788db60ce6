"""How a model's output differs from the reference (notebook 07b, §2.1).

The corpus has free variation: commas, 了 right after 去 or at the end of a clause (去了公园 /
去公园了) and 所以 / 就 may differ between two equally good phrasings. ``difference_kind(hyp, ref)`` names the difference of two token lists:
``"另一种说法"`` (only that free variation), ``"换了一个词：a → b"``, ``"漏译：…"`` (only deletions),
``"多出：…"`` (only insertions) or ``"多处不同"``. ``looked_weight(attention, hyp, pair)`` is the most
weight a left-out English word got at any step: near 0, the model never looked at it; high, it looked
and did not say it.
"""

from __future__ import annotations

import difflib

OTHER_PHRASING = "另一种说法"
_CLAUSE_END = {"，", "。", "？", "！"}


def plain_form(tokens) -> list[str]:
    """The tokens with the corpus's free variation removed: commas, 了 right after 去 or right before a
    punctuation mark (the end of a clause), 所以 -> 就."""
    tokens = list(tokens)
    out: list[str] = []
    for k, tok in enumerate(tokens):
        nxt = tokens[k + 1] if k + 1 < len(tokens) else "。"
        if tok == "，" or (tok == "了" and ((out and out[-1] == "去") or nxt in _CLAUSE_END)):
            continue
        out.append("就" if tok == "所以" else tok)
    return out


def difference_kind(hyp, ref) -> str:
    """The kind of difference between output ``hyp`` and reference ``ref`` (token lists that differ)."""
    hyp, ref = list(hyp), list(ref)
    ops = [op for op in difflib.SequenceMatcher(a=ref, b=hyp, autojunk=False).get_opcodes() if op[0] != "equal"]
    if plain_form(hyp) == plain_form(ref):
        return OTHER_PHRASING
    if len(ops) == 1 and ops[0][0] == "replace" and ops[0][2] - ops[0][1] == ops[0][4] - ops[0][3] == 1:
        return f"换了一个词：{ref[ops[0][1]]} → {hyp[ops[0][3]]}"
    if all(op[0] == "delete" for op in ops):
        return "漏译：" + "、".join("".join(ref[a:b]) for _, a, b, _, _ in ops)
    if all(op[0] == "insert" for op in ops):
        return "多出：" + "、".join("".join(hyp[c:d]) for _, _, _, c, d in ops)
    return "多处不同"


def dropped_source(hyp, pair) -> list[int]:
    """English positions of ``pair`` with a sure link into a reference token that ``hyp`` left out
    (a difflib deletion): the source words whose translation is missing from the output."""
    ref = list(pair.tgt)
    ops = difflib.SequenceMatcher(a=ref, b=list(hyp), autojunk=False).get_opcodes()
    dropped = {j for op, a, b, _, _ in ops if op == "delete" for j in range(a, b)}
    return sorted({i for i, j in pair.sure if j in dropped})


def looked_weight(attention, hyp, pair) -> float:
    """The largest weight any English word left out of ``hyp`` (``dropped_source``) got at any step of
    ``attention`` [T, S], the step that emits <eos> included; 0.0 when nothing was left out."""
    import numpy as np

    cols = dropped_source(hyp, pair)
    if not cols:
        return 0.0
    att = np.asarray(attention)[: len(hyp) + 1]  # the output's rows and the <eos> step
    return float(att[:, cols].max())
