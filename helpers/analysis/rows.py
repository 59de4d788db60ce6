"""Row-by-row checks of one attention heatmap against a pair's gold alignment (notebook 07a, §2).

A row is one output step t (from 1); its *peak* is the source word with the largest weight. The
checks say whether each peak is on a gold link (sure or possible), which rows are *moved* (their
sure link crosses another sure link: where the word order changes), and why a row misses:
``"无确定链接"`` (the word has no sure link, e.g. 了, 的, a measure word), ``"相邻"`` (the peak is
next to a gold word) or ``"远"`` (farther away). ``t`` is a ``helpers.translate`` result whose
output equals the pair's reference, so that row t belongs to the t-th reference word.
``many_to_one(pairs)`` counts, over a split, the rows with more than one sure link (two English words,
one Chinese word: *last night* → 昨晚), where the arg-max rule of AER can match only one link.
"""

from __future__ import annotations

import numpy as np

NO_SURE, ADJACENT, FAR = "无确定链接", "相邻", "远"
MISS_KINDS = (NO_SURE, ADJACENT, FAR)


def peak_of(t, row: int) -> int:
    """The source index with the largest weight in row ``row`` (0-based), padding columns ignored."""
    return int(np.argmax(t.attention[row, : len(t.src_tokens)]))


def row_peaks(t, pair) -> list[tuple[int, str, str, bool]]:
    """Per output row: (t from 1, output word, source word at the peak, peak on a gold link?)."""
    gold = set(pair.sure) | set(pair.possible)
    return [(j + 1, tok, t.src_tokens[peak_of(t, j)], (peak_of(t, j), j) in gold)
            for j, tok in enumerate(t.tgt_tokens)]


def moved_rows(pair) -> set[int]:
    """Target positions j (0-based) whose sure link crosses another sure link."""
    links = sorted(pair.sure)
    return {j for (i1, j1) in links for (i2, j2) in links for j in (j1, j2) if i1 < i2 and j1 > j2}


def crossings(pair) -> int:
    """How many pairs of sure links cross (i1 < i2 but j1 > j2): a measure of reordering."""
    links = sorted(set(pair.sure))
    return sum(1 for a, (i1, j1) in enumerate(links) for (i2, j2) in links[a + 1:] if i1 < i2 and j1 > j2)


def miss_kind(t, pair, step: int) -> str:
    """Why row ``step`` (t from 1) misses: no sure link, a peak next to a gold word, or far away."""
    j = step - 1
    gold = sorted(i for i, jj in pair.sure if jj == j)
    if not gold:
        return NO_SURE
    peak = peak_of(t, j)
    return ADJACENT if min(abs(peak - i) for i in gold) == 1 else FAR


def check_rows(t, pair) -> tuple[int, int, int, int, list[str], str]:
    """(rows on gold, rows, moved rows on gold, moved rows, kinds of the missed rows, a one-line summary)."""
    peaks = row_peaks(t, pair)
    moved = moved_rows(pair)
    kinds = [miss_kind(t, pair, s) for s, *_, ok in peaks if not ok]
    off = [f"t={s} {tok}→{src}〔{miss_kind(t, pair, s)}〕" for s, tok, src, ok in peaks if not ok]
    hits = sum(ok for *_, ok in peaks)
    hit_moved = sum(ok for s, *_, ok in peaks if s - 1 in moved)
    text = (f"峰值在标准对齐上: {hits}/{len(peaks)} 行，调序的行 {hit_moved}/{len(moved)}"
            + (f"；没对上: {', '.join(off)}" if off else ""))
    return hits, len(peaks), hit_moved, len(moved), kinds, text


def mostly_right(checked) -> bool:
    """A ``check_rows`` result whose moved rows peak on gold at least half the time (or has none)."""
    hit, n = checked[2], checked[3]
    return n == 0 or hit >= n / 2


def far_misses(t, pair) -> list[tuple[int, str, list[int], int]]:
    """The rows that miss by more than one word: (t from 1, output word, gold source indices, peak index)."""
    return [(s, tok, [i for i, j in sorted(pair.sure) if j == s - 1], peak_of(t, s - 1))
            for s, tok, _, ok in row_peaks(t, pair) if not ok and miss_kind(t, pair, s) == FAR]


def many_to_one(pairs, top: int = 4) -> list[tuple[tuple[str, ...], str, int]]:
    """The ``top`` most frequent rows with several sure links over ``pairs``: (English words in source
    order, the Chinese word, how often), most frequent first, ties in order of first appearance."""
    counts: dict = {}
    for p in pairs:
        by_row: dict = {}
        for i, j in sorted(p.sure):
            by_row.setdefault(j, []).append(p.src[i])
        for j, words in by_row.items():
            if len(words) > 1:
                key = (tuple(words), p.tgt[j])
                counts[key] = counts.get(key, 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])  # stable: first appearance breaks ties
    return [(en, zh, n) for (en, zh), n in ranked[:top]]
