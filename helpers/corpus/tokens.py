"""Token building blocks shared by every renderer of the corpus (no corpus imports: no import circles).

An English token is a one-element list (``en("cat")`` -> ``["cat"]``) so that Chinese tokens can point
at it by identity; a Chinese token is ``zh(word, sure=(e, ...), poss=(e, ...))``. ``finish`` appends the
final punctuation, numbers the English tokens and returns the aligned pair as plain tuples.
"""

from __future__ import annotations


def en(word):
    """An English token: a one-element list, so Chinese tokens can point at it by identity."""
    return [word]


def zh(word, sure=(), poss=()):
    """A Chinese token with the English tokens it is linked to (sure and possible)."""
    return (word, tuple(sure), tuple(poss))


def ens(text):
    """English tokens of a space-separated string: ``ens("thank you")`` -> [["thank"], ["you"]]."""
    return [en(w) for w in text.split()]


def links(en_tokens, zh_tokens):
    """(src, tgt, sure, possible) of finished token lists (English tokens must not be numbered yet)."""
    for i, e in enumerate(en_tokens):
        e.append(i)  # token -> its index, read back as e[1]
    sure = frozenset([(e[1], j) for j, z in enumerate(zh_tokens) for e in z[1]])
    poss = sure.union([(e[1], j) for j, z in enumerate(zh_tokens) for e in z[2]])
    return tuple(e[0] for e in en_tokens), tuple(z[0] for z in zh_tokens), sure, poss


def finish(en_tokens, zh_tokens, question=False, tags=(), alternatives=()):
    """A finished pair ``(src, tgt, sure, possible, tags, refs)`` with the final punctuation added.

    ``alternatives``: other Chinese phrasings that are equally good, each a list of ``zh`` tokens of the
    same sentence (without the final punctuation); they become ``refs`` (token tuples, no links)."""
    ep = en("?" if question else ".")
    en_tokens = list(en_tokens) + [ep]
    end = zh("？" if question else "。", (ep,))
    zh_tokens = list(zh_tokens) + [end]
    if question:  # 吗 marks the question as "?" does: a possible link
        zh_tokens = [(w, s, p + (ep,)) if w == "吗" else (w, s, p) for w, s, p in zh_tokens]
    src, tgt, sure, poss = links(en_tokens, zh_tokens)
    refs = tuple(dict.fromkeys(tuple(z[0] for z in alt) + (end[0],) for alt in alternatives))
    refs = tuple(r for r in refs if r != tgt)
    return src, tgt, sure, poss, tuple(sorted(set(tags))), refs
