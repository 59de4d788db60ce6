"""Markdown renders everywhere: every markdown cell and the README, through a CommonMark + GFM renderer.

CommonMark does not close ``**…）**`` right before a CJK character, so the reader sees literal
asterisks; GFM (and JupyterLab) turn a pair of single ``~`` into strikethrough, so ``3~20 … 21~50``
crosses out the text between. markdown-it-py with the GFM plugin of mdit-py-plugins (single and
double tildes, dollar math as in Jupyter) renders both the way the reader sees them.
"""

import re
from pathlib import Path

import nbformat
import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.gfm import gfm_plugin

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "notebooks" / "solutions").glob("*.ipynb"))
RANGE_WITH_TILDE = re.compile(r"[\d)）]\s*[~～]\s*[\d(（]")


def _renderer() -> MarkdownIt:
    return MarkdownIt("commonmark").use(gfm_plugin, dollarmath=True)


MD = _renderer()  # GFM: strikethrough from single and double tildes, as JupyterLab shows them
# Emphasis is checked with the plain CommonMark rules (cmark-gfm on the code-hosting site and JupyterLab's
# renderer follow them): mdit-py-plugins' GFM plugin closes ``**…）**`` before CJK text, which they do not.
STRICT = MarkdownIt("commonmark").use(dollarmath_plugin)


def rendering_problems(source: str) -> list[str]:
    """What a reader would see wrong in ``source``: literal ``**`` in the text, or a strikethrough."""
    problems = []
    for block in STRICT.parse(source):
        for tok in block.children or ():
            if tok.type == "text" and "**" in tok.content:
                problems.append(f"literal ** in: {tok.content[:70]!r}")
    for block in MD.parse(source):
        for tok in block.children or ():
            if tok.type in ("s_open", "del_open"):
                problems.append("strikethrough (<s>/<del>) from ~")
    return problems


def _documents():
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        for k, cell in enumerate(nb.cells):
            if cell.cell_type == "markdown":
                yield f"{path.relative_to(ROOT)} cell {k}", cell.source
    yield "README.md", (ROOT / "README.md").read_text(encoding="utf-8")


DOCUMENTS = list(_documents())


def test_renderer_catches_the_known_failures():
    assert rendering_problems("带**标准词对齐（gold alignment）**的语料") != []
    assert rendering_problems("前两种属于**乘法形式**。Bahdanau 的**加法形式（Additive Style）**是 $v$") != []
    assert rendering_problems("长度在 3~20 个词，long 是 21~50 个词") != []
    assert rendering_problems("带 **标准词对齐**（gold alignment）的语料，长度 3–20 和 21–50") == []


def test_math_and_code_are_not_text():
    assert rendering_problems("$a**b$ 与 `x ** 2`") == []


def test_there_are_documents_to_check():
    assert len(NOTEBOOKS) >= 15
    assert len(DOCUMENTS) > 100


@pytest.mark.parametrize("where, source", DOCUMENTS, ids=[w for w, _ in DOCUMENTS])
def test_markdown_renders_without_literal_stars_or_strikethrough(where, source):
    assert rendering_problems(source) == [], where


@pytest.mark.parametrize("where, source", DOCUMENTS, ids=[w for w, _ in DOCUMENTS])
def test_ranges_are_written_with_a_dash_not_a_tilde(where, source):
    prose = re.sub(r"```.*?```|`[^`]*`|\$\$.*?\$\$|\$[^$]*\$", "", source, flags=re.S)
    assert RANGE_WITH_TILDE.findall(prose) == [], f"{where}: write 3–20 or 3 到 20"
