"""The corpus tour of notebook 06: examples picked by rule, and the small counts printed beside them.

* ``TOUR``  label -> predicate on a pair, one per phenomenon the tour shows (measure words, 和, 们, 那些,
  where is, relative clauses, question words, 会 / 能 / 可以)
* ``first(pairs, predicate, max_len=9)``, ``tour_examples(pairs)``  the first pair of at most ``max_len``
  English words that satisfies each predicate
* ``links_of(pair, j, kind)``  the English words linked to Chinese position j (sure or possible links)
* ``measure_word_links(pair)``  the numeral, the measure word after it and the noun it counts, with links
* ``dropped_subjects(pair)``  English subject pronouns that continue a story and have no sure link
  (Chinese drops a subject that goes on)
* ``RELATIONS``, ``connective_stats(pairs)``  per connective (然后, 所以, 但是 …): the share of pairs that
  hold it and the English words it is linked to
"""

from __future__ import annotations

from collections import Counter

__all__ = ["NUMERALS", "PRONOUNS", "RELATIONS", "TOUR", "connective_stats", "dropped_subjects", "first",
           "links_of", "measure_word_links", "relative_verb", "tour_examples"]

NUMERALS = frozenset({"一", "两", "二", "三", "四", "五", "六", "七", "八", "九", "十"})
PRONOUNS = frozenset({"i", "you", "he", "she", "we", "they"})
RELATIONS = {"先后 (sequence)": ("然后", "之后"), "因果 (cause)": ("所以", "因为"), "追加 (addition)": ("还",),
             "结果 (consequence)": ("就",), "转折 (contrast)": ("但是", "可是")}


def relative_verb(pair) -> str:
    """The English word right after who/that in a relative clause ("helped" in "the doctor who helped …"), or ""."""
    k = next((k for k, w in enumerate(pair.src) if w in ("who", "that")), None)
    return pair.src[k + 1] if k is not None and k + 1 < len(pair.src) else ""


TOUR = {
    "数词 + 量词（量词是单独的词）": lambda p: "number" in p.phenomena and "of" not in p.src,  # not a container (a cup of tea)
    "名词并列（和）": lambda p: "和" in p.tgt,
    "复数（们）": lambda p: "们" in p.tgt,
    "复数（那些）": lambda p: "那些" in p.tgt,
    "where is / where are": lambda p: tuple(p.src[:2]) in (("where", "is"), ("where", "are")),
    "关系从句（过去时）": lambda p: "relative_clause" in p.phenomena and relative_verb(p).endswith("ed"),
    "关系从句（现在时）": lambda p: "relative_clause" in p.phenomena and relative_verb(p).endswith("s"),
    "什么": lambda p: "什么" in p.tgt,
    "谁": lambda p: "谁" in p.tgt,
    "为什么": lambda p: "为什么" in p.tgt,
    "怎么": lambda p: "怎么" in p.tgt,
    "几": lambda p: "几" in p.tgt,
    "会（能力）": lambda p: "can" in p.src and "会" in p.tgt,  # can = 会: an ability, not "might" (可能 会)
    "能": lambda p: "能" in p.tgt,
    "可以": lambda p: "可以" in p.tgt,
}


def first(pairs, predicate, max_len: int = 9):
    """The first pair with at most ``max_len`` English words for which ``predicate(pair)`` holds (StopIteration if none)."""
    return next(p for p in pairs if len(p.src) <= max_len and predicate(p))


def tour_examples(pairs, tour: dict = TOUR, max_len: int = 9) -> dict:
    """label -> the first short pair of ``pairs`` that shows it."""
    return {label: first(pairs, predicate, max_len) for label, predicate in tour.items()}


def links_of(pair, j: int, kind: str = "sure") -> list[str]:
    """English words linked to the Chinese token at position j (0-based) by ``kind`` links ("sure" or "possible")."""
    return [pair.src[i] for i, jj in sorted(getattr(pair, kind)) if jj == j]


def measure_word_links(pair) -> dict:
    """The first numeral + measure word of ``pair`` and the noun it counts (the next token with the same sure link).

    Keys: k (position of the measure word), numeral, word, n (position of the noun or None), noun, between
    (tokens between measure word and noun, e.g. an adjective), and the links of each."""
    k = next(k for k in range(1, len(pair.tgt)) if pair.tgt[k - 1] in NUMERALS)  # the token after the numeral
    n = next((n for n in range(k + 1, len(pair.tgt)) if links_of(pair, n) == links_of(pair, k)), None)
    return {"k": k, "numeral": pair.tgt[k - 1], "word": pair.tgt[k], "n": n,
            "noun": pair.tgt[n] if n is not None else None, "between": list(pair.tgt[k + 1:n]) if n is not None else [],
            "numeral_links": links_of(pair, k - 1), "word_sure": links_of(pair, k),
            "word_possible": links_of(pair, k, "possible"), "noun_links": links_of(pair, n) if n is not None else []}


def dropped_subjects(pair) -> list[int]:
    """Positions of English subject pronouns after a clause boundary (, and then that) with no sure link."""
    linked = {i for i, _ in pair.sure}
    return [i for i, w in enumerate(pair.src) if i > 0 and pair.src[i - 1] in (",", "and", "then", "that")
            and w in PRONOUNS and i not in linked]


def connective_stats(pairs, relations: dict = RELATIONS) -> tuple[dict, dict]:
    """(share, english): per connective, the share of ``pairs`` holding it, and a Counter of the English words
    each occurrence is linked to (sure or possible; "（无链接）" when none)."""
    share, english = {}, {}
    for words in relations.values():
        for w in words:
            share[w] = sum(w in p.tgt for p in pairs) / len(pairs)
            english[w] = Counter(" ".join(p.src[i] for i, j in sorted(p.sure | p.possible) if j == k) or "（无链接）"
                                 for p in pairs for k, t in enumerate(p.tgt) if t == w)
    return share, english
