"""A sentence spec to an aligned pair: the entry point of the renderers (corpus 4.0).

``render(spec)`` returns ``(src, tgt, sure, possible, tags, refs)``. A spec is one of

* a clause dict: ``{"type": "act" | "cop_n" | "cop_adj" | "loc", ...}`` (``helpers.corpus.grammar``),
  ``{"type": "weather" | "exist", ...}`` (``helpers.corpus.grammar_extra``);
* a story ``{"chain": [clause, conn, clause, ...], "plan": name}``, which
  ``helpers.corpus.discourse.render_chain`` renders (connectives by relation, a continuing subject
  dropped in Chinese) together with the other Chinese phrasings it knows to be equally good;
* a construction family ``{"family": name, ...}`` (``helpers.corpus.families``).

This module sits on top of the renderers, so that imports go one way: tokens / lexicon <- grammar <-
grammar_extra, discourse <- surface.
"""

from __future__ import annotations

from helpers.corpus.discourse import render_chain
from helpers.corpus.families import render_family
from helpers.corpus.grammar import gender_of, le_after_bare_object
from helpers.corpus.grammar import render_clause as _render_act_or_copula
from helpers.corpus.grammar_extra import render_exist, render_weather
from helpers.corpus.tokens import finish


def render_clause(c, tags):
    """English tokens (no final punctuation) and Chinese tokens of one clause spec of any kind."""
    if c["type"] == "weather":
        return render_weather(c, tags)
    if c["type"] == "exist":
        return render_exist(c, tags)
    return _render_act_or_copula(c, tags)


def _women_they(c):
    """Lily and her daughter ... their phone -> 她们 的 手机: "their" agrees with a group of women."""
    s = c.get("subj")
    if not s or s.get("k") != "coord" or gender_of(s) != "f":
        return c
    c = dict(c)
    for key in ("obj", "io", "with"):
        np = c.get(key)
        if isinstance(np, dict) and np.get("poss") == ("pron", "they"):
            c[key] = dict(np, poss=("pron", "they", "f"))
    return c


def _chain_end(zh):
    """The final 了 of a story: 还 看 了 电视 。 stays (not 还 看 电视 了), else 吃 肉 了 。 as in a clause."""
    k = max((i for i, z in enumerate(zh) if z[0] in ("，", "。", "？")), default=-1)
    if any(z[0] in ("还", "也") for z in zh[k + 1:]):
        return zh
    return le_after_bare_object(zh)


def render(spec):
    """(src tokens, tgt tokens, sure links, possible links, phenomenon tags, refs) of a sentence spec.

    ``refs``: the other Chinese phrasings the generator knows to be equally good (token tuples with
    the final punctuation); for a story, those of ``render_chain``."""
    if "family" in spec:  # greetings, numbers, comparison, ...: helpers.corpus.families
        return render_family(spec)
    tags = set()
    alternatives = ()
    if "chain" in spec:  # multi-clause stories: helpers.corpus.discourse
        en_tokens, zh_tokens, question, alternatives = render_chain(spec["chain"], tags)
        alternatives = [_chain_end(list(a)) for a in alternatives]
        zh_tokens = _chain_end(zh_tokens)
    else:
        en_tokens, zh_tokens = render_clause(_women_they(spec), tags)
        question = spec.get("q") is not None
        zh_tokens = le_after_bare_object(zh_tokens)
    return finish(en_tokens, zh_tokens, question, tags, alternatives)
