"""Tripwire: every decimal or percentage that a markdown cell states is printed by some output of the
same notebook.

A notebook's prose must say only what its outputs show (DESIGN §8). This test cannot read a claim,
but it can find numbers in the prose that no output prints, which is what a stale commentary looks
like after re-execution. It is a tripwire, not a proof: a number can match an unrelated output.

What counts as a claim: a decimal (0.97, 12.5) or a percentage (97 %, 93.5%) in a markdown cell,
outside code. Not claims: section numbers (9.10.3, "9.9 节", "教材 9.10", numbered headings "### 2.1"),
version numbers (Python 3.11, OFL 1.1), tolerances (±0.03, 精确到 0.01), and exercise prompts
(cells that open with 练习 or 思考题: they ask, they state no result; in a solution notebook the same
cells explain the answer, so there they count).
A claim is backed when some output number rounds to it: "0.97" is backed by 0.970 or 0.9703, and by
97.0 %; "97 %" is backed by 0.97 or 97.0%. A setting is backed by the same decimal literal in a code
cell of the notebook (exactly: "半径 0.14" by ``radius=0.14``, "30%" by ``dim=0.3``), because the
reader sees it there.
"""

import math
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "notebooks" / "solutions").glob("*.ipynb"))

# Notebooks whose committed prose still states numbers that no output prints (issue 15); strict xfail,
# so a notebook that starts passing must be removed from here. Remove a name once it is rewritten.
STALE: set[str] = set()

CLAIM = re.compile(r"(?<![\w.])\d+(?:\.\d+)+(?:\s*[%％])?|(?<![\w.])\d+\s*[%％]")
OUTPUT_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?:\s*[%％])?")
NOT_A_RESULT_BEFORE = re.compile(r"(?:教材|第|节（|§|Python|OFL|版本|version|±|精确到|误差)\s*$", re.I)
SECTION_AFTER = re.compile(r"^\s*(?:小节|节)")
CODE = re.compile(r"```.*?```|~~~.*?~~~|`[^`\n]*`", re.S)
HEADING_NUMBER = re.compile(r"^(#{1,6}\s*)[\d.]+", re.M)
EXERCISE = re.compile(r"^\s*(?:#{1,6}\s*)?(?:\*\*)?\s*(?:练习|思考题)")
CODE_DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")


@dataclass(frozen=True)
class Claim:
    text: str  # as written, e.g. "0.97" or "93 %"
    value: float  # 0.97, 0.93
    places: int  # decimals of ``value`` as written (a percentage adds 2)

    def backed_by(self, x: float) -> bool:
        """True when ``x`` (a printed number) rounds to this claim."""
        return abs(x - self.value) <= 0.5 * 10.0 ** (-self.places) * (1 + 1e-9) + 1e-12

    def set_by(self, literal: float) -> bool:
        """True when a code literal is exactly this number (a setting, not a result)."""
        return abs(literal - self.value) < 1e-12


def claims_in(markdown: str) -> list[Claim]:
    """The decimals and percentages that a markdown text states as results."""
    text = HEADING_NUMBER.sub(r"\1", CODE.sub(" ", markdown))
    out = []
    for m in CLAIM.finditer(text):
        written = m.group()
        number = written.rstrip("%％ ")
        if number.count(".") > 1:  # 9.10.3: a section, or a version
            continue
        if NOT_A_RESULT_BEFORE.search(text[max(0, m.start() - 8) : m.start()]):
            continue
        if SECTION_AFTER.match(text[m.end() :]):
            continue
        places = len(number.split(".")[1]) if "." in number else 0
        if written.endswith(("%", "％")):
            out.append(Claim(written, float(number) / 100, places + 2))
        else:
            out.append(Claim(written, float(number), places))
    return out


def numbers_in(text: str) -> list[float]:
    """Every number an output shows; a percentage gives both 97.0 and 0.97."""
    out = []
    for m in OUTPUT_NUMBER.finditer(text):
        written = m.group()
        x = float(written.rstrip("%％ "))
        out.append(x)
        if written.endswith(("%", "％")):
            out.append(x / 100)
    return [x for x in out if math.isfinite(x)]


def _output_texts(nb) -> list[str]:
    texts = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if output.output_type == "stream":
                texts.append(output.text)
            elif output.output_type in ("execute_result", "display_data"):
                data = output.get("data", {})
                texts += [data.get("text/plain", ""), data.get("text/markdown", "")]
                texts.append(re.sub(r"<[^>]+>", " ", data.get("text/html", "")))
    return texts  # widget state is not committed (notebook policy); a widget's static PNG is an image


def unbacked_claims(nb, solutions: bool = False) -> list[tuple[int, str]]:
    """(cell index, number as written) for each markdown number that no output (or code setting) backs.

    ``solutions``: the notebook is a solution notebook, where exercise cells state answers."""
    shown = [x for text in _output_texts(nb) for x in numbers_in(text)]
    settings = [float(m) for cell in nb.cells if cell.cell_type == "code" for m in CODE_DECIMAL.findall(cell.source)]
    missing = []
    for k, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown" or (EXERCISE.match(cell.source) and not solutions):
            continue
        for c in claims_in(cell.source):
            if not any(c.backed_by(x) for x in shown) and not any(c.set_by(x) for x in settings):
                missing.append((k, c.text))
    return missing


# ------------------------------------------------------------------ the rules on small texts
def test_decimals_and_percentages_are_claims():
    assert [c.text for c in claims_in("AER 在 0.065–0.074 之间，完全一致率 93 %，BLEU 12.5")] == [
        "0.065", "0.074", "93 %", "12.5"]


def test_sections_versions_headings_and_tolerances_are_not_claims():
    text = ("### 2.1 标题\n对应教材 9.10 注意力机制，第 9.9 节，见 4.2 节和 9.10.3；Python 3.11，SIL OFL 1.1；"
            "误差 ±0.03 以内，精确到 0.01；式 (9-37)，2015 年")
    assert claims_in(text) == []


def test_numbers_in_code_are_not_claims():
    assert claims_in("设置 `dropout=0.1`：\n```python\nx = 0.5\n```") == []


def test_a_claim_is_backed_by_the_same_number_printed_with_more_digits():
    (claim,) = claims_in("约 0.97")
    assert claim.backed_by(0.970) and claim.backed_by(0.9703)
    assert not claim.backed_by(0.96)


def test_percent_and_fraction_back_each_other():
    (percent,) = claims_in("完全一致率 97 %")
    (fraction,) = claims_in("完全一致率 0.97")
    assert any(percent.backed_by(x) for x in numbers_in("exact match 0.970"))
    assert any(fraction.backed_by(x) for x in numbers_in("exact match 97.0%"))


def test_a_notebook_with_a_stale_number_is_flagged():
    nb = nbformat.v4.new_notebook()
    code = nbformat.v4.new_code_cell("print(aer)")
    code.outputs = [nbformat.v4.new_output("stream", text="AER = 0.065\n")]
    nb.cells = [code, nbformat.v4.new_markdown_cell("AER 是 0.065，不是 0.2 左右。")]
    assert unbacked_claims(nb) == [(1, "0.2")]


def test_a_setting_written_in_the_code_backs_the_prose_but_only_exactly():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("plot(radius=0.14, dim=0.3)"),
                nbformat.v4.new_markdown_cell("半径 0.14，其余调暗到 30%；不是 0.1。")]
    assert unbacked_claims(nb) == [(1, "0.1")]


def test_exercise_prompts_are_not_claims():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("### 练习 2：把半径改成 **0.05**，再算一次。"),
                nbformat.v4.new_markdown_cell("**思考题（不检查）。** 权重大于 0.3 时呢？")]
    assert unbacked_claims(nb) == []
    assert unbacked_claims(nb, solutions=True) == [(0, "0.05"), (1, "0.3")]


# ------------------------------------------------------------------ every notebook
def _params():
    for path in NOTEBOOKS:
        marks = ()
        if path.stem in STALE:
            marks = pytest.mark.xfail(strict=True, reason=f"{path.stem}: its prose states numbers that no output "
                                      "prints (issue 15); remove it from STALE once rewritten")
        yield pytest.param(path, marks=marks, id=str(path.relative_to(ROOT / "notebooks")))


def test_stale_list_names_existing_notebooks():
    assert STALE <= {p.stem for p in NOTEBOOKS}


@pytest.mark.parametrize("path", list(_params()))
def test_every_number_in_the_prose_is_printed_by_an_output(path):
    nb = nbformat.read(path, as_version=4)
    assert unbacked_claims(nb, solutions=path.parent.name == "solutions") == [], f"{path.name}: (cell, number) stated in markdown but printed by no output"
