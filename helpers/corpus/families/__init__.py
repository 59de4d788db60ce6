"""Construction families of corpus 4.0: the sentence patterns of the syllabus, one module per family.

Each family module (``greetings``, ...) reads its words from ``helpers/corpus/data/`` through
``helpers.corpus.syllabus`` and defines two functions:

* ``sample(rng) -> spec``: a random spec, a plain dict with ``"family": <module name>``;
* ``render(spec) -> (src, tgt, sure, possible, tags, refs)``: built with ``helpers.corpus.tokens``
  (``finish`` adds the final punctuation and the links).

A family imports only ``helpers.corpus.tokens``, ``helpers.corpus.syllabus`` and the lexicon tables,
never the grammar or the stories (no import circles). ``FAMILIES`` gives each family's weight in the
short buckets (3-10 and 11-20 English tokens); ``sample_family`` draws one by weight.
"""

from __future__ import annotations

from importlib import import_module

# family module -> relative weight among the families
FAMILIES: dict[str, float] = {
    "greetings": 1.0,
    "personal": 2.0,
    "numbers": 1.5,
    "clock": 2.0,
    "prices": 1.0,
    "modals": 1.0,
    "compare": 1.0,
    "questions": 1.0,
    "clauses": 1.0,
    "adverbs": 1.0,
    "possessives": 1.0,
    "everyday": 8.0,  # many rows (issue 28: every word at least 20 times in train)
    "phrasal": 6.0,
}


def _module(name):
    return import_module(f"helpers.corpus.families.{name}")


def sample_family(rng) -> dict:
    """A spec of one family, drawn by weight."""
    names = list(FAMILIES)
    name = rng.choices(names, weights=[FAMILIES[n] for n in names])[0]
    spec = _module(name).sample(rng)
    spec["family"] = name
    return spec


def render_family(spec):
    """(src, tgt, sure, possible, tags, refs) of a family spec."""
    return _module(spec["family"]).render(spec)
