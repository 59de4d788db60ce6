"""The syllabus as data: read the vocabulary and sentence-pattern files of ``helpers/corpus/data/``.

The English that Chinese students learn in primary and junior-secondary school is written down in
plain files a teacher can read and extend (see ``helpers/corpus/data/README.md``): tab-separated
tables with a header row (``*.tsv``; lines starting with ``#`` are comments) and TOML files for
sentence patterns. The generators (``helpers.corpus.families``, ``helpers.corpus.lexicon``) read them
through this module and nothing else, so adding a row adds a word to the corpus.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import tomllib

from helpers.runtime.errors import HelpersError

DATA = Path(__file__).resolve().parent / "data"


@cache
def read_tsv(name: str) -> tuple[dict, ...]:
    """Rows of ``data/<name>.tsv`` as dicts keyed by the header (empty cells are "")."""
    path = DATA / f"{name}.tsv"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise HelpersError(f"语料数据文件不存在 (corpus data file missing): data/{name}.tsv") from None
    rows = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    header = rows[0].split("\t")
    out = []
    for lineno, line in enumerate(rows[1:], start=2):
        cells = line.split("\t")
        if len(cells) > len(header):
            raise HelpersError(f"data/{name}.tsv 有一行的列数太多 (too many columns) near row {lineno}: {line!r}")
        out.append(dict(zip(header, [c.strip() for c in cells] + [""] * (len(header) - len(cells)))))
    return tuple(out)


@cache
def read_toml(name: str) -> dict:
    """The contents of ``data/<name>.toml``."""
    path = DATA / f"{name}.toml"
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise HelpersError(f"语料数据文件不存在 (corpus data file missing): data/{name}.toml") from None
