"""Extra slots of the families everyday and phrasal (not a family itself): cities, surnames, places,
devices, holidays ... read from ``data/everyday_slots.tsv``.

A row of ``data/everyday.tsv`` or ``data/phrasal.tsv`` may use these upper-case slots besides those of
``slots.py`` (``S HAVE been to CITY NT`` -> i have been to beijing twice -> 我 去 过 北京 两 次);
``PLC2`` / ``PLC3`` are further values of ``PLC``, each different from the others. ``sample`` draws a
row with ``slots.sample_row`` and adds the choices of its extra slots; ``render`` fills them in.
"""

from __future__ import annotations

from functools import lru_cache

from helpers.corpus.families.slots import chunk, parse_links, render_row, sample_row
from helpers.corpus.syllabus import read_tsv


@lru_cache(maxsize=1)
def extra_slots() -> dict[str, tuple]:
    """slot name -> its values, each (English words, Chinese words, sure links, possible links)."""
    out: dict[str, list] = {}
    for r in read_tsv("everyday_slots"):
        sure, poss = parse_links(r["links"])
        out.setdefault(r["slot"], []).append(chunk(r["en"].split(), r["zh"].split(), sure, poss))
    return {k: tuple(v) for k, v in out.items()}


def _base(name: str) -> str:
    return name.rstrip("23")


def _used(template: str) -> list[str]:
    """The extra slots of a template, in order ("PLC is between PLC2 and PLC3" -> PLC, PLC2, PLC3)."""
    table = extra_slots()
    return list(dict.fromkeys(t for t in template.split() if t.isupper() and _base(t) in table))


def sample(rng, table: str) -> dict:
    """A spec of one row of ``data/<table>.tsv``: the slots of slots.py and the extra ones (value indices)."""
    spec = sample_row(rng, table)
    row = read_tsv(table)[spec["row"]]
    chosen: dict[str, int] = {}
    for name in _used(row["en"]):
        values = extra_slots()[_base(name)]
        taken = {i for n, i in chosen.items() if _base(n) == _base(name)}
        chosen[name] = rng.choice([i for i in range(len(values)) if i not in taken])
    spec["x"] = chosen
    return spec


def render(spec):
    """(src, tgt, sure, possible, tags, refs) of a spec made by ``sample``."""
    table = extra_slots()
    values = {name: table[_base(name)][i] for name, i in spec.get("x", {}).items()}
    return render_row(spec, values)
