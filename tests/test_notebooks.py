"""Notebook policy: every notebook runs top to bottom in quick mode, and the committed copies were
executed in order by ``python -m helpers.tools.notebooks execute``, with no errors, paths or widget state."""

import nbformat
import pytest

from helpers.tools.notebooks import NOTEBOOK_DIR, ROOT, execute_notebook, notebook_paths, policy_problems

MAIN = [
    "00_setup_check",
    "01_information_bottleneck",
    "02_origins",
    "03_idea",
    "04_framework",
    "05a_computation_steps",
    "05b_computation_extras",
    "06_training",
    "07_heatmaps",
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
    "07_heatmaps": ["9.10"],
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
    # Each notebook starts in a fresh kernel, so 03, 05a, 05b and 07 also run with nothing run before them.
    nb = execute_notebook(path, quick=True, timeout=300, runs=2)
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert errors == []


def test_notebooks_have_no_machine_paths_in_source():
    for path in PATHS:
        assert str(ROOT) not in _text(path), path


def test_missing_kernel_says_what_to_run(monkeypatch, capsys):
    import helpers.tools.notebooks as runner

    real = runner.execute_notebook
    monkeypatch.setattr(runner, "execute_notebook",
                        lambda path, quick: real(path, quick=quick, kernel_name="no-such-kernel-for-test"))
    assert runner.main(["execute", "--quick", "00_setup"]) == 2
    assert "ipykernel install" in capsys.readouterr().err


# What the grader's guard refuses in a student's kernel (helpers.exercises.grade_guard): a course notebook that
# starts a program stops there for every student who hands it in (06 once ran `python -m helpers.train --help`).
STARTS_A_PROGRAM = ("subprocess", "os.system", "os.popen", "Popen", "os.exec", "posix_spawn", "pty.spawn")


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_no_notebook_starts_a_program(path):
    nb = nbformat.read(str(path), as_version=4)
    found = [(k, word) for k, cell in enumerate(nb.cells) if cell.cell_type == "code"
             for word in STARTS_A_PROGRAM if word in cell.source]
    assert found == [], f"{path.name}: (cell, call) that a graded kernel refuses"
