"""Notebook policy: every notebook runs top to bottom in quick mode, and the committed copies were
executed in order by ``python -m helpers.tools.notebooks execute``, with no errors, paths or widget state."""

import ast
import re

import nbformat
import pytest
from claims import claims_for, modules

from helpers.tools.notebooks import (
    NOTEBOOK_DIR,
    ROOT,
    Claim,
    ClaimsFailed,
    execute_notebook,
    notebook_paths,
    policy_problems,
)

MAIN = [
    "00_setup_check",
    "01_information_bottleneck",
    "02_origins",
    "03_idea",
    "04_framework",
    "05a_computation_steps",
    "05b_computation_extras",
    "06_training",
    "07a_heatmaps",
    "07b_faithfulness",
    "07c_to_transformer",
]

# Book numbering each notebook must carry (section, figure and equation numbers of 9.10).
REQUIRED_NUMBERS = {
    "01_information_bottleneck": ["9.10", "信息瓶颈", "Information Bottleneck", "9.9"],
    "02_origins": ["9.10.1", "图 9-23", "William James"],
    "03_idea": ["9.10.2", "图 9-22", "加法形式", "乘法形式"],
    "04_framework": ["9.10.3", "图 9-24", "硬注意力", "软注意力"],
    "05a_computation_steps": ["9.10.3", "图 9-25", "(9-37)", "(9-38)", "(9-39)", "(9-40)", "W_1", "(E1)"],
    "05b_computation_extras": ["9.10.3", "图 9-25", "补充 1", "(E3)", "(E4)", "(E5)", "local-m", "local-p"],
    "06_training": ["9.10"],
    "07a_heatmaps": ["9.10.2", "图 9-22", "(9-37)", "图 3", "图 7", "AER"],
    "07b_faithfulness": ["9.10.2", "图 9-22", "实验课", "(9-38)"],
    "07c_to_transformer": ["9.10.3", "(9-37)", "(9-38)", "(9-40)", "Transformer"],
}

PATHS = notebook_paths()
IDS = [str(p.relative_to(NOTEBOOK_DIR)) for p in PATHS]


def _text(path):
    nb = nbformat.read(str(path), as_version=4)
    return "\n".join(cell.source for cell in nb.cells)


def test_main_notebooks_exist_in_reading_order():
    present = [p.stem for p in notebook_paths(include_solutions=False)]
    assert present == [name for name in MAIN if (NOTEBOOK_DIR / f"{name}.ipynb").exists()]
    assert present[: 1] == ["00_setup_check"]


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_committed_notebook_follows_policy(path):
    nb = nbformat.read(str(path), as_version=4)
    assert policy_problems(nb) == []
    assert any(cell.get("outputs") for cell in nb.cells if cell.cell_type == "code"), "committed without outputs"


@pytest.mark.parametrize("name", sorted(REQUIRED_NUMBERS))
def test_notebook_carries_book_numbering(name):
    path = NOTEBOOK_DIR / f"{name}.ipynb"
    if not path.exists():
        pytest.fail(f"{name}.ipynb is missing")
    text = _text(path)
    missing = [number for number in REQUIRED_NUMBERS[name] if number not in text]
    assert missing == []


@pytest.mark.notebook
@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_notebook_runs_top_to_bottom_twice_in_quick_mode(path):
    # Run All twice in one kernel: a teacher re-running a demo must not hit stale state.
    # Each notebook starts in a fresh kernel, so 03, 05a, 05b and 07a–07c also run with nothing run before them.
    # The registered claims (tests/claims) are checked in the kernel during these same runs.
    try:
        nb = execute_notebook(path, quick=True, timeout=300, runs=2,
                              claims=claims_for(path.relative_to(NOTEBOOK_DIR).as_posix()))
    except ClaimsFailed as failed:
        pytest.fail(str(failed), pytrace=False)  # every broken claim with its description, no runner traceback
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert errors == []


def _asserts_in(source: str) -> list[int]:
    """Line numbers of the assert statements of a code cell (IPython magics and shell lines blanked)."""
    python = "\n".join("" if re.match(r"\s*[%!]", line) else line for line in source.split("\n"))
    return [node.lineno for node in ast.walk(ast.parse(python)) if isinstance(node, ast.Assert)]


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_no_assert_in_notebook_code_cells(path):
    # A claim's check lives in tests/claims, never in a cell the student edits (DESIGN §8).
    nb = nbformat.read(str(path), as_version=4)
    found = [(k, line) for k, cell in enumerate(nb.cells) if cell.cell_type == "code" for line in _asserts_in(cell.source)]
    assert found == [], f"{path.name}: (cell, line) with an assert; register the check in tests/claims instead"


def test_asserts_in_finds_an_assert_anywhere_in_a_cell():
    source = "%matplotlib inline\nx = 1\nfor k in range(2):\n    assert k < 2, 'small'\nprint('assert')\n"
    assert _asserts_in(source) == [4]
    assert _asserts_in("print('no assert here')  # assert") == []


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_every_cell_has_a_stable_unique_id(path):
    # Claims point to cells by id (nbformat 4.5); execute keeps the ids, so they stay stable across re-executions.
    nb = nbformat.read(str(path), as_version=4)
    assert (nb.nbformat, nb.nbformat_minor) >= (4, 5)
    ids = [cell.get("id") for cell in nb.cells]
    assert None not in ids and len(set(ids)) == len(ids)


def test_every_registered_claim_points_to_an_existing_code_cell():
    registry = modules()
    assert registry, "tests/claims has no registry module"
    problems = []
    for notebook, module in registry.items():
        path = NOTEBOOK_DIR / notebook
        if not path.exists():
            problems.append(f"{module.__name__}: no notebook {notebook}")
            continue
        code_ids = {c.id for c in nbformat.read(str(path), as_version=4).cells if c.cell_type == "code"}
        for claim in module.CLAIMS:
            if not isinstance(claim, Claim) or claim.cell not in code_ids:
                problems.append(f"{notebook}: claim on unknown cell {getattr(claim, 'cell', claim)!r}")
                continue
            try:
                compile(claim.check, "<claim>", "eval")
            except SyntaxError as exc:
                problems.append(f"{notebook}: claim {claim.check!r} is not an expression ({exc.msg})")
    assert problems == []


def test_every_notebook_and_solution_has_registered_claims():
    # the prose of every notebook says something about its outputs; each such claim is checked (DESIGN §8)
    registered = {notebook for notebook, module in modules().items() if module.CLAIMS}
    notebooks = {path.relative_to(NOTEBOOK_DIR).as_posix() for path in PATHS}
    assert sorted(notebooks - registered) == []


@pytest.mark.notebook
def test_a_broken_claim_fails_with_its_description(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 3\nprint(x)", id="first"),
                nbformat.v4.new_code_cell("x = x + 1", id="second")]
    path = tmp_path / "demo.ipynb"
    nbformat.write(nb, str(path))
    claims = [Claim("first", "x == 3", "x starts at three"),      # holds right after its cell, not at the end
              Claim("first", "x > 5", "x is above five"),         # false
              Claim("second", "y == 4", "y is four"),             # raises NameError
              Claim("gone", "True", "a cell that was deleted"),   # no such cell
              Claim("second", "x == 0", "only in full mode", full_only=True)]   # not checked in quick mode
    with pytest.raises(ClaimsFailed) as failed:
        execute_notebook(path, quick=True, timeout=60, runs=2, claims=claims)
    message = str(failed.value)
    assert message.startswith("3 claim(s) of demo.ipynb did not hold:")
    assert "x is above five" in message and "got: False" in message
    assert "y is four" in message and "NameError" in message
    assert "a cell that was deleted" in message and "no cell with this id" in message
    assert "x starts at three" not in message and "only in full mode" not in message
    assert "run 1, 2" in message                                 # the same failure in both runs is listed once
    executed = failed.value.nb
    assert [c.execution_count for c in executed.cells] == [3, 4]  # the checks did not move the counter
    assert executed.cells[0].outputs[0]["text"] == "3\n"           # nor print anything


def test_execute_command_checks_the_registered_claims():
    import helpers.tools.notebooks as runner

    assert runner.registered_claims(NOTEBOOK_DIR / "99_a_students_own_notebook.ipynb") == []  # none registered
    assert any(c.check == "problems == []" for c in runner.registered_claims(NOTEBOOK_DIR / "00_setup_check.ipynb"))
    got = runner.registered_claims(NOTEBOOK_DIR / "solutions" / "02_origins_solutions.ipynb")
    assert got and all(isinstance(c, Claim) for c in got)
    assert any(c.check == 'check("nb02_hard_gradient", my_slope).passed' for c in got)


def test_notebooks_have_no_machine_paths_in_source():
    for path in PATHS:
        assert str(ROOT) not in _text(path), path


def test_missing_kernel_says_what_to_run(monkeypatch, capsys):
    import helpers.tools.notebooks as runner

    real = runner.execute_notebook
    monkeypatch.setattr(runner, "execute_notebook",
                        lambda path, quick, claims=None: real(path, quick=quick, kernel_name="no-such-kernel-for-test",
                                                              claims=claims))
    assert runner.main(["execute", "--quick", "00_setup"]) == 2
    assert "ipykernel install" in capsys.readouterr().err


# What the grader's guard refuses in a student's kernel (helpers.grading.guard): a course notebook that
# starts a program stops there for every student who hands it in (06 once ran `python -m helpers.train --help`).
STARTS_A_PROGRAM = ("subprocess", "os.system", "os.popen", "Popen", "os.exec", "posix_spawn", "pty.spawn")


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_no_notebook_starts_a_program(path):
    nb = nbformat.read(str(path), as_version=4)
    found = [(k, word) for k, cell in enumerate(nb.cells) if cell.cell_type == "code"
             for word in STARTS_A_PROGRAM if word in cell.source]
    assert found == [], f"{path.name}: (cell, call) that a graded kernel refuses"
