"""The teachers' grade command: verdicts are decided outside the student's kernel.

One batch of small submissions is graded once (module fixture, a few kernels in quick mode); the
sandbox tests call ``grading.sandbox`` directly and need no kernel.
"""

import csv
import linecache
import shutil
import time
from pathlib import Path

import nbformat
import pytest
import torch

from helpers.exercises import EXERCISES, check, default_points
from helpers.grading import record as rec
from helpers.grading import runner as g
from helpers.grading import sandbox as sb

ROOT = Path(__file__).resolve().parents[1]
NB05 = [i for i, ex in EXERCISES.items() if ex.notebook.startswith("05")]

LIAR = '''
import torch

class Liar(torch.Tensor):
    """Claims to be close to anything."""
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func in (torch.allclose, torch.Tensor.allclose, torch.isclose, torch.equal):
            return True
        return super().__torch_function__(func, types, args, kwargs or {})

def my_context_vector(weights, values):
    return torch.zeros(weights.shape[0], weights.shape[1], values.shape[2]).as_subclass(Liar)
'''

CHEATS = [
    # 1. a Tensor subclass whose __torch_function__ lies
    LIAR + "\nfrom helpers.exercises import check\ncheck('context_vector', my_context_vector)",
    # 2. the reference solution object, directly and wrapped, and a reference value
    "from helpers.exercises import EXERCISES, check\n"
    "check('masked_softmax', EXERCISES['masked_softmax'].solution)\n"
    "check('luong_step', lambda *a: EXERCISES['luong_step'].solution(*a))\n"
    "check('nb05_context_shape', EXERCISES['nb05_context_shape'].solution)",
]
# a student of their own (the cheats above already use 05a's code exercises; a file is marked for one notebook):
PATCHER = [
    # 3. patch torch.allclose and helpers' comparison, then hand in zeros of the right shape
    "import torch\nimport helpers.exercises.engine as engine\nfrom helpers.exercises import check\n"
    "torch.allclose = lambda *a, **k: True\nengine.close = lambda *a, **k: True\n"
    "def my_context_vector(weights, values):\n"
    "    return torch.zeros(weights.shape[0], weights.shape[1], values.shape[2])\n"
    "check('context_vector', my_context_vector)",
    # 4. a function that patches torch inside its own body (runs in the sandbox only)
    "import torch\nfrom helpers.exercises import check\n"
    "def my_masked_softmax(scores, mask):\n    torch.allclose = lambda *a, **k: True\n"
    "    return torch.zeros_like(scores)\n"
    "check('masked_softmax', my_masked_softmax)",
]


def _define(source: str) -> dict:
    """Run ``source`` as a notebook cell would: as ``__main__``, with its text in linecache."""
    name = f"<cell-{abs(hash(source))}>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    namespace = {"__name__": "__main__"}
    exec(compile(source, name, "exec"), namespace)
    return namespace


def _notebook(path: Path, *sources: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, str(path))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("submissions")
    for student in ("solution", "blank"):
        (root / student).mkdir()
    shutil.copy(ROOT / "notebooks/solutions/05a_computation_steps_solutions.ipynb", root / "solution")
    shutil.copy(ROOT / "notebooks/solutions/05b_computation_extras_solutions.ipynb", root / "solution")
    shutil.copy(ROOT / "notebooks/solutions/02_origins_solutions.ipynb", root / "solution")
    shutil.copy(ROOT / "notebooks/05a_computation_steps.ipynb", root / "blank")
    shutil.copy(ROOT / "notebooks/05b_computation_extras.ipynb", root / "blank")
    shutil.copy(ROOT / "notebooks/02_origins.ipynb", root / "blank")
    (root / "broken").mkdir()  # one file per course notebook: a 05a file that stops with an error, and a 05b file
    _notebook(root / "broken/05a.ipynb", "from helpers.exercises import check\ncheck('nb05_context_shape', (2, 5, 128))",
              "1 / 0", "check('context_vector', None)")
    _notebook(root / "broken/05b.ipynb", "from helpers.exercises import check\ncheck('nb05_padding_weight', (0.7, 'A'))")
    _notebook(root / "loops.ipynb", "from helpers.exercises import check\n"
              "def my_context_vector(weights, values):\n    while True:\n        pass\n"
              "check('context_vector', my_context_vector)")
    _notebook(root / "cheater.ipynb", *CHEATS)
    _notebook(root / "patcher.ipynb", *PATCHER)
    (root / "essay.ipynb").write_text("这不是笔记本 (not JSON)", encoding="utf-8")
    out = root.parent / "grades.csv"
    # 120 s: the limit is wall clock for the whole notebook, and CI's 2 cores may be busy
    columns, _ = g.grade(root, timeout=120, call_timeout=3, quick=True, log=lambda *_: None, out=out,
                         notebooks=["02_origins", "05a_computation_steps", "05b_computation_extras"])
    _, details, summary = g.report_paths(out)
    table = {r["student"]: r for r in csv.DictReader(out.open(encoding="utf-8-sig"))}
    verdicts = {(r["student"], r["exercise"]): r for r in csv.DictReader(details.open(encoding="utf-8-sig"))}
    return columns, table, verdicts, summary.read_text(encoding="utf-8")


def test_solution_notebooks_get_full_marks(graded):
    columns, table, _, _ = graded
    row = table["solution"]
    assert row["status"] == g.OK
    full = {c: default_points(EXERCISES[c]) for c in columns}  # the registry's points (2 for code and two-part ones)
    assert float(row["total"]) == float(row["max_score"]) == sum(full.values())
    assert {c for c in columns if float(row[c]) == full[c]} == set(columns)


def test_columns_are_the_exercises_of_the_assignment(graded):
    columns = graded[0]
    assert set(columns) == {i for i, ex in EXERCISES.items() if ex.notebook in ("02_origins", "05a_computation_steps",
                                                                            "05b_computation_extras")}


def test_blank_notebooks_are_all_not_finished(graded):
    columns, table, verdicts, _ = graded
    assert table["blank"]["status"] == g.OK and table["blank"]["total"] == "0"
    assert {verdicts["blank", c]["verdict"] for c in columns} == {g.UNFINISHED}


def test_a_broken_notebook_says_so_and_its_other_answers_are_still_graded(graded):
    _, table, verdicts, _ = graded
    assert g.ERROR in table["broken"]["status"] and "ZeroDivisionError" in table["broken"]["status"]
    assert verdicts["broken", "nb05_context_shape"]["verdict"] == g.PASSED
    assert verdicts["broken", "nb05_padding_weight"]["verdict"] == g.WRONG
    assert table["broken"]["total"] == "1"


def test_a_hanging_notebook_times_out_and_keeps_what_it_recorded(tmp_path):
    _notebook(tmp_path / "hangs.ipynb", "from helpers.exercises import check\ncheck('nb05_context_shape', (2, 5, 128))",
              "while True:\n    pass", "check('nb05_padding_weight', (0.402, 'A'))")
    start = time.monotonic()
    sub = g.run_notebook(g.Submission(tmp_path / "hangs.ipynb", "hangs"), timeout=15, quick=True)
    assert time.monotonic() - start < 40
    assert sub.status == g.TIMEOUT
    assert g.mark("nb05_context_shape", sub.answers.get("nb05_context_shape"), call_timeout=3).verdict == g.PASSED
    assert "nb05_padding_weight" not in sub.answers  # the cell after the loop never ran
    # what the reports say about it: 超时 (timeout), not 未作答 (not attempted)
    sub.notebook = EXERCISES["nb05_padding_weight"].notebook  # the grade command identifies it from the cells
    marks = g.mark_submission(sub, ["nb05_padding_weight"], call_timeout=3, jail=None, deny=())
    assert marks["nb05_padding_weight"].verdict == g.TIMEOUT == "超时 (timeout)"
    assert "--timeout" in marks["nb05_padding_weight"].message and marks["nb05_padding_weight"].points == 0
    assert g.mark("nb05_padding_weight", None, call_timeout=3).verdict == g.MISSING  # a run that finished


def test_an_infinite_loop_in_a_function_fails_that_exercise_only(graded):
    _, table, verdicts, _ = graded
    assert table["loops"]["status"] == g.OK  # check() only recorded it: the kernel did not loop
    assert verdicts["loops", "context_vector"]["verdict"] == g.WRONG
    assert "timed out" in verdicts["loops", "context_vector"]["message"]


def test_cheating_tricks_do_not_pass(graded):
    _, table, verdicts, _ = graded
    assert table["cheater"]["total"] == "0"
    # patched torch.allclose / engine.close (patcher): the checkers' engine is not even importable in a graded kernel
    assert verdicts["cheater", "context_vector"]["verdict"] == g.WRONG  # lying Tensor subclass
    assert verdicts["cheater", "masked_softmax"]["verdict"] == g.REFERENCE
    assert verdicts["cheater", "nb05_context_shape"]["verdict"] == g.REFERENCE
    assert verdicts["cheater", "luong_step"]["verdict"] == g.WRONG  # wrapper: helpers.exercises not importable
    assert "not importable while grading" in verdicts["cheater", "luong_step"]["message"]
    assert table["patcher"]["total"] == "0"
    assert verdicts["patcher", "context_vector"]["verdict"] == g.MISSING  # patched torch.allclose / engine.close
    assert verdicts["patcher", "masked_softmax"]["verdict"] == g.WRONG  # patches torch in its own body


def test_a_file_that_is_not_a_notebook_gets_a_row(graded):
    _, table, _, _ = graded
    assert g.NOT_NOTEBOOK in table["essay"]["status"] and table["essay"]["total"] == "0"


def test_summary_gives_pass_rates_and_the_most_common_wrong_answer(graded):
    columns, table, verdicts, summary = graded
    students = len(table)
    line = next(s for s in summary.splitlines() if s.startswith("| `nb05_padding_weight`"))
    passed = sum(verdicts.get((s, "nb05_padding_weight"), {}).get("verdict") == g.PASSED for s in table)
    assert f"{passed}/{students}" in line and "(0.7, 'A')（1 人）" in line  # broken/05b.ipynb answered (0.7, 'A')


def test_the_summary_says_what_isolation_the_graded_code_had(graded):
    """grades.md read weeks later must not suggest an isolation the run did not have."""
    from helpers.grading import jail as jail_mod

    *_, summary = graded
    line = next(s for s in summary.splitlines() if s.startswith("批改时的隔离 (isolation of the graded code)："))
    probe = jail_mod.Isolation()
    try:
        expected = probe.summary()
    finally:
        probe.close()
    assert line.split("：", 1)[1].startswith(jail_mod.LEVELS[probe.level].split("(")[0].strip())
    assert len(expected) > 20


def test_the_lying_tensor_fools_an_in_kernel_check_but_not_the_sandbox():
    namespace = _define(LIAR)
    assert check("context_vector", namespace["my_context_vector"]).passed  # why grading runs elsewhere
    bundle = rec.function_bundle(namespace["my_context_vector"], namespace)
    with sb.Sandbox(bundle, call_timeout=5) as box:
        out = box.function(torch.ones(1, 2, 3), torch.ones(1, 3, 4))
        assert type(out) is torch.Tensor and out.shape == (1, 2, 4)
        assert not check("context_vector", box.function).passed


def test_sandbox_stops_a_function_that_never_returns():
    namespace = _define("def spin(x):\n    while True:\n        pass\n")
    with sb.Sandbox(rec.function_bundle(namespace["spin"], namespace), call_timeout=1) as box:
        with pytest.raises(sb.GradingTimeout):
            box.function(1)
        with pytest.raises(Exception, match="stopped after a timeout"):
            box.function(2)


def test_recorded_answers_load_without_running_pickled_code():
    class Evil:
        def __reduce__(self):
            return (print, ("pwned",))

    data = sb.dumps({"a": sb.encode([1, 2.5, "x", torch.ones(2)]), "b": sb.encode(Evil())})
    back = sb.loads(data)
    assert back["a"][:3] == [1, 2.5, "x"] and torch.equal(back["a"][3], torch.ones(2))
    assert type(sb.decode(back["b"])).__name__ == "Evil"  # only its type name travels
    import pickle

    with pytest.raises(pickle.UnpicklingError):
        sb.loads(sb.dumps(Evil()))


def test_cli_without_a_submissions_folder_says_what_to_do(tmp_path, capsys):
    from helpers.grading.__main__ import main

    assert main([str(tmp_path / "nope")]) == 2
    assert "submissions folder not found" in capsys.readouterr().out
    assert main([]) == 2


def test_extra_files_in_a_students_folder_are_ignored_but_a_lone_file_gets_a_row(tmp_path):
    for rel in ("ann/05.ipynb", "ann/plot.png", "ben/essay.docx", ".ipynb_checkpoints/x.ipynb", "cid.ipynb"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("{}")
    found = {(s.student, s.path.name) for s in g.find_submissions(tmp_path)}
    assert found == {("ann", "05.ipynb"), ("ben", "essay.docx"), ("cid", "cid.ipynb")}


@pytest.mark.parametrize(("entry", "verdict"), [
    ("forged", g.UNGRADABLE), ({"kind": 5}, g.UNGRADABLE), ({"kind": "function", "imports": 3}, g.UNGRADABLE)])
def test_a_tampered_answer_record_is_ungradable_not_a_crash(entry, verdict):
    assert g.mark("context_vector", entry, call_timeout=2).verdict == verdict


def test_the_old_spelling_of_the_command_still_grades_and_names_the_new_one(tmp_path, capsys):
    from helpers.exercises.__main__ import main as old_main

    assert old_main(["grade", str(tmp_path / "nope")]) == 2
    captured = capsys.readouterr()
    assert "submissions folder not found" in captured.out and "python -m helpers.grading" in captured.err
