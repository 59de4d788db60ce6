"""Which sentences a notebook shows, chosen by a fixed rule rather than by hand (notebook 07a).

* ``pick(pairs, tag, translate_tokens, ...)``: the first pair with phenomenon ``tag``, at most
  ``max_len`` English words, whose greedy translation equals the reference (so the gold alignment
  can be overlaid); for ``wh_question`` the question word must not be the first Chinese word
* ``most_crossing(pairs, n, ...)``: the ``n`` pairs with the most crossing sure links (the
  reordering that Bahdanau et al. 2014, Fig. 3, show), ties broken by corpus order
* ``first_exact(pairs, rule, translate_tokens, max_len)``: the first pair passing ``rule``, at most
  ``max_len`` words, that the model translates exactly (None when there is none)
* ``exact_pairs(pairs, translate_tokens)``: the pairs the model translates exactly, in corpus order
"""

from __future__ import annotations

from helpers.analysis.rows import crossings

WH_WORDS = ("what", "who", "where", "why", "how", "when", "which")


def wh_moves(pair) -> bool:
    """The English question word's Chinese word is not the first one: English fronts it, Chinese does not."""
    return any(pair.src[i] in WH_WORDS and j > 0 for i, j in pair.sure)


EXTRA_RULE = {"wh_question": wh_moves}


def pick(pairs, tag: str, translate_tokens, max_len: int = 10, taken=()):
    """The first pair with ``tag`` that the model (``translate_tokens(pair) -> output tokens``) gets
    exactly right within ``max_len`` words; else the first candidate."""
    rule = EXTRA_RULE.get(tag, bool)
    candidates = [p for p in pairs if tag in p.phenomena and p not in taken and rule(p)]
    for p in candidates:
        if len(p.src) <= max_len and list(translate_tokens(p)) == list(p.tgt):
            return p
    return candidates[0]


def pick_gallery(pairs, tags, translate_tokens, long_tags=("clause_chain",), long_len: int = 13) -> dict:
    """tag -> pair for every tag, each sentence distinct."""
    chosen = {}
    for tag in tags:
        chosen[tag] = pick(pairs, tag, translate_tokens, long_len if tag in long_tags else 10,
                           taken=list(chosen.values()))
    return chosen


def most_crossing(pairs, n: int = 2, max_len: int = 12, keep=lambda p: True) -> list:
    """The ``n`` pairs (at most ``max_len`` words, passing ``keep``) with the most crossing sure links;
    ``keep`` (e.g. "the model translates it exactly") is only asked of the candidates in that order."""
    ranked = sorted((k for k, p in enumerate(pairs) if len(p.src) <= max_len), key=lambda k: (-crossings(pairs[k]), k))
    out = []
    for k in ranked:
        if len(out) == n:
            break
        if keep(pairs[k]):
            out.append(pairs[k])
    return out


def first_exact(pairs, rule, translate_tokens, max_len: int = 10):
    """The first pair with ``rule(pair)`` true, at most ``max_len`` English words, whose output
    (``translate_tokens(pair)``) equals its reference; None when no pair qualifies. The model is only
    asked about the candidates, in corpus order, until one is found."""
    for p in pairs:
        if len(p.src) <= max_len and rule(p) and list(translate_tokens(p)) == list(p.tgt):
            return p
    return None


def exact_pairs(pairs, translate_tokens) -> list:
    """The pairs whose output (``translate_tokens(pair)``) equals the reference, in corpus order."""
    return [p for p in pairs if list(translate_tokens(p)) == list(p.tgt)]
