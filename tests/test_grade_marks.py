"""Marks that mean what they say, a class in minutes, what an LMS takes (issue 32, items 3-5).

Most tests use fabricated records and rows (no kernel). One small batch (module fixture) is graded twice,
with one worker and with two: a hidden student folder, an empty one, a student who calls a reveal before
the check, a notebook outside the assignment.
"""

import csv
import json
import shutil
from pathlib import Path

import pytest
import torch

import helpers.exercises as hx
from helpers.exercises import EXERCISES, check
from helpers.exercises import reveals as rv
from helpers.grading import marks as mk
from helpers.grading import record as rec
from helpers.grading import report
from helpers.grading import runner as g
from helpers.grading import submissions as subs_mod

CONTEXT = "def my_context_vector(weights, values):\n    return weights @ values\n"
HONEST = ["from helpers.exercises import check\ncheck('nb05_context_shape', (2, 5, 128))",
          CONTEXT + "check('context_vector', my_context_vector)"]
PEEK = ["from helpers.exercises import check\nfrom helpers.exercises.reveals import init_peak_alpha\n"
        "peak = init_peak_alpha()\ncheck('nb05_saturation', 'A' if peak['untrained unscaled'] < 0.5 else 'B')"]


def _nb(path: Path, *sources) -> None:
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": s} for s in sources]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}), encoding="utf-8")


def _function_entry(**changes) -> dict:
    entry = {"kind": "function", "name": "my_context_vector", "imports": [], "data": {},
             "sources": [CONTEXT], "signature": "(weights, values)"}
    entry.update(changes)
    return entry


# --- item 3: the source rule cannot be dodged through the answers file ------------------------------


def test_a_tuple_of_sources_not_in_the_notebook_earns_nothing():
    entry = _function_entry(sources=(CONTEXT,))  # a tuple skipped the "source must be in the notebook" rule
    m = mk.mark("context_vector", entry, call_timeout=5, cells=["x = 1"])
    assert m.verdict == mk.UNGRADABLE and m.points == 0 and "sources" in m.message


@pytest.mark.parametrize("line", ["import torch as torch\ndef my_context_vector(weights, values):\n    return weights @ values",
                                  "import torch as t; my_context_vector = lambda w, v: w @ v",
                                  "exec('my_context_vector = lambda w, v: w @ v')"])
def test_code_in_the_imports_of_a_record_is_never_run(line):
    stub = "def my_context_vector(weights, values):\n    return my_context_vector(weights, values)\n"
    entry = _function_entry(imports=[line], sources=[stub], name="my_context_vector")
    m = mk.mark("context_vector", entry, call_timeout=5, cells=[stub])
    assert m.verdict == mk.UNGRADABLE and "imports" in m.message


def test_the_records_the_recorder_writes_pass_the_shape_check():
    import linecache

    source = ("import torch\nimport helpers.attention as att\nfrom helpers.exercises import EXERCISES\nK = 3\n"
              "def helper(x):\n    return x * K\n"
              "def my_context_vector(weights, values):\n    E = EXERCISES\n"
              "    return helper(torch.matmul(weights, values)) + att.masked_softmax\n")
    name = "<cell-shape-check>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    namespace = {"__name__": "__main__"}
    exec(compile(source, name, "exec"), namespace)
    import helpers.exercises as hx

    entry = rec.function_bundle(namespace["my_context_vector"], namespace, blocked=(hx.EXERCISES,))
    assert len(entry["imports"]) == 3 and entry["data"].keys() == {"K"}  # torch, att, EXERCISES (blocked)
    assert mk._malformed(entry) is None


# --- item 3: reveals answer only after the check recorded an answer ---------------------------------


@pytest.fixture
def grading_kernel(tmp_path, monkeypatch):
    """This process as a graded kernel: the recorder's state, writing to a file of the test's own."""
    monkeypatch.setitem(rec._STATE, "path", str(tmp_path / "answers.pt"))
    monkeypatch.setitem(rec._STATE, "answers", {})
    monkeypatch.setitem(rec._STATE, "revealed", set())
    return rec._STATE


@pytest.mark.parametrize("call, exercise_id", [
    (lambda: rv.egret_share_slope(rv.HARD), "nb02_hard_gradient"),
    (lambda: rv.egret_share_slope(rv.SOFT, radius=rv.NARROW), "nb02_narrow_soft"),
    (lambda: rv.split_aers("long"), "nb06_best_aer"),
    (lambda: rv.novel_vs_test(), "nb07_aer_reading"),
    (lambda: rv.split_aer("novel"), "nb07_aer_reading"),
    (lambda: rv.init_peak_alpha(), "nb05_saturation"),
    (lambda: rv.blind_bleu("none"), "nb01_blind_s0"),
])
def test_a_reveal_called_before_its_check_refuses_while_grading(grading_kernel, call, exercise_id):
    with pytest.raises(rv.RevealTooEarly) as info:
        call()
    assert exercise_id in str(info.value) and "(predict first)" in str(info.value)


def test_after_the_check_the_reveal_answers_and_the_prediction_stays(grading_kernel):
    rec.recorder_check("nb02_hard_gradient", 0.5)  # the prediction
    assert rv.egret_share_slope(rv.HARD) == 0.0  # a hard edge: no pixel crosses it (hand reasoning: slope 0)
    rec.recorder_check("nb02_hard_gradient", 0.0)  # the revealed value, handed in afterwards
    assert grading_kernel["answers"]["nb02_hard_gradient"] == {"kind": "value", "value": 0.5}
    assert rv.egret_share_slope(rv.SOFT) < 0  # the default soft spotlight is no exercise's answer: never gated


def test_outside_grading_the_reveals_always_answer():
    assert rec._STATE["path"] is None
    assert rv.egret_share_slope(rv.HARD) == 0.0


# --- item 3: every student folder gets a row; statuses say what happened ---------------------------


def test_hidden_and_empty_student_folders_are_students(tmp_path):
    _nb(tmp_path / ".ann" / "05.ipynb", *HONEST)
    (tmp_path / "bob").mkdir()
    _nb(tmp_path / "cid" / ".ipynb_checkpoints" / "05-checkpoint.ipynb", *HONEST)
    (tmp_path / ".ipynb_checkpoints").mkdir()
    found = {(s.student, s.path.name) for s in g.find_submissions(tmp_path)}
    assert found == {(".ann", "05.ipynb")}
    assert subs_mod.student_folders(tmp_path) == [".ann", "bob", "cid"]


def test_a_file_outside_the_assignment_is_named_as_such():
    sub = subs_mod.Submission(Path("07.ipynb"), "eve", "eve/07.ipynb", data=json.dumps(
        {"cells": [{"cell_type": "code", "source": "check('nb07a_aer_floor', 1)"}]}).encode())
    assert subs_mod.parse(sub)
    sub.notebook = subs_mod.identify(sub, EXERCISES)
    status, marks, _ = g._grade_student([sub], [], ["05a_computation_steps"], timeout=1, call_timeout=1, quick=True,
                                        jail=None, deny=())
    assert g.NOT_IN_ASSIGNMENT in status and "07a_heatmaps" in status and "本课程的练习" not in status
    assert marks == {}


def test_a_check_under_a_magic_that_runs_no_python_is_no_call():
    known = {"nb07a_aer_floor": 0, "context_vector": 0}
    assert subs_mod.called_ids(["%%script false\ncheck('nb07a_aer_floor', 1)",
                                "%%writefile x.py\ncheck('nb07a_aer_floor', 1)"], known) == []
    assert subs_mod.called_ids(["%%time\ncheck('context_vector', f)"], known) == ["context_vector"]


# --- item 3: student text is escaped in every report ------------------------------------------------


def test_student_text_reaches_grades_md_as_text_not_html():
    hostile = "<img src=x onerror=alert(1)> | **bold** [link](javascript:x) `code` $x$"
    rows = {f"s{k}": {"status": g.OK, "marks": {"nb05_context_shape": mk.Mark(mk.WRONG, "m", hostile)}} for k in range(2)}
    text = report.summary_markdown(["nb05_context_shape"], rows)
    row = next(line for line in text.splitlines() if "nb05_context_shape" in line)
    assert "<img" not in row and "&lt;img" in row
    assert row.count(" | ") == 6 - 1 and "\\*\\*bold\\*\\*" in row and "\\[link\\]" in row and "\\`code\\`" in row


@pytest.mark.parametrize("cell", ["=cmd|' /C calc'!A0", " =1+1", "＝1+1", "\n=1", "-2+3", "@SUM(A1)"])
def test_no_csv_cell_of_student_text_can_start_a_formula(cell):
    assert report.safe(cell).startswith("'")


def test_every_csv_and_the_gradescope_file_neutralise_student_text(tmp_path):
    name, answer = "=HYPERLINK(\"http://x\")", " =cmd"
    r = report.Reports(tmp_path / "grades.csv", ["nb05_context_shape"])
    r.add(name, "@status", {"nb05_context_shape": mk.Mark(mk.WRONG, "<b>m</b>", answer)})
    r.close()
    for path in (tmp_path / "grades.csv", tmp_path / "grades_details.csv", tmp_path / "grades_lms.csv"):
        for row in csv.reader(path.open(encoding="utf-8-sig")):
            assert not any(cell.lstrip(" ").startswith(("=", "@")) for cell in row), (path, row)
    (folder,) = (tmp_path / "grades_gradescope").iterdir()
    assert folder.name.startswith("=HYPERLINK(_http")  # one path component: the quote and slashes replaced
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    assert results["output_format"] == results["test_output_format"] == "text"  # shown as text, never HTML


# --- item 3: max_score from the registry, never from students' text ---------------------------------


def test_max_score_is_the_registrys_points_whatever_the_students_wrote(tmp_path):
    columns = [i for i, ex in EXERCISES.items() if ex.notebook == "05a_computation_steps"]
    expected = sum(hx.default_points(EXERCISES[c]) for c in columns)
    assert expected == 3 * 2 + 2 * 1  # three code exercises (2 points each), two readings (1 each)
    r = report.Reports(tmp_path / "grades.csv", columns)
    r.add("ann", g.OK, {})  # nothing recorded
    r.add("bob", g.OK, {"masked_softmax": mk.Mark(mk.PASSED, out_of=2)})
    r.close()
    rows = list(csv.DictReader((tmp_path / "grades.csv").open(encoding="utf-8-sig")))
    assert [row["max_score"] for row in rows] == ["8", "8"] and [row["total"] for row in rows] == ["0", "2"]


# --- item 4: progress -------------------------------------------------------------------------------


def test_progress_says_k_of_n_and_estimates_from_the_first_student(monkeypatch):
    clock = iter([100.0, 110.0, 130.0])  # start; first student after 10 s; second after 30 s
    monkeypatch.setattr(g.time, "monotonic", lambda: next(clock))
    lines = []
    progress = g.Progress(4, 1, lines.append)
    progress.finished("ann", g.OK, [])
    progress.finished("bob", g.OK, [])
    assert lines[0].startswith("[1/4] ann") and "30 秒" in lines[0]  # 10 s a student, 3 left: 30 s
    assert lines[1].startswith("[2/4] bob") and "30 秒" in lines[1]  # 15 s a student, 2 left


def test_with_two_workers_the_first_estimate_counts_both(monkeypatch):
    clock = iter([0.0, 20.0])
    monkeypatch.setattr(g.time, "monotonic", lambda: next(clock))
    lines = []
    g.Progress(6, 2, lines.append).finished("ann", g.OK, [])
    assert "50 秒" in lines[0]  # both workers busy for 20 s: two students per 20 s, 5 left: 50 s


def test_worker_uids_are_distinct_and_unused():
    import pwd

    base = pwd.getpwnam("nobody").pw_uid
    uids = [g.worker_uid(base, k) for k in range(4)]
    assert uids[0] == base and len(set(uids)) == 4
    for uid in uids[1:]:
        with pytest.raises(KeyError):
            pwd.getpwuid(uid)


# --- item 5: points and partial credit from the registry --------------------------------------------


def test_points_come_from_the_registry():
    assert hx.default_points(EXERCISES["context_vector"]) == 2  # code: several test cases
    assert hx.default_points(EXERCISES["nb05_padding_weight"]) == 2  # prediction and reason
    assert hx.default_points(EXERCISES["nb05_context_shape"]) == 1


def test_a_right_prediction_with_a_wrong_reason_gets_half():
    value, reason = EXERCISES["nb05_padding_weight"].solution
    wrong_reason = next(k for k in "ABCD" if k != reason)
    result = check("nb05_padding_weight", (value, wrong_reason))
    assert result.details["parts"] == 2 and result.details["passed_parts"] == 1
    m = mk.mark("nb05_padding_weight", {"kind": "value", "value": (value, wrong_reason)}, call_timeout=5)
    m.out_of = 2
    assert m.verdict == mk.WRONG and m.points == 1
    m = mk.mark("nb05_padding_weight", {"kind": "value", "value": (value + 0.5, reason)}, call_timeout=5)
    m.out_of = 2
    assert m.points == 0  # the prediction is wrong: the reason is not checked


def test_a_code_answer_gets_the_share_of_cases_passed_before_the_first_failure():
    from helpers.exercises.engine import Case, run_cases

    cases = [Case("a", {"x": torch.ones(2)}, torch.full((2,), 2.0), "[2]"),
             Case("b", {"x": torch.zeros(2)}, torch.full((2,), 1.0), "[2]"),
             Case("c", {"x": torch.ones(3)}, torch.full((3,), 2.0), "[3]"),
             Case("d", {"x": torch.ones(4)}, torch.full((4,), 2.0), "[4]")]
    verdict = run_cases(lambda x: x * 2, cases, "f(x)", lambda case, out: None)  # 2x, not x + 1: wrong at case b
    assert not verdict.passed and verdict.details["parts"] == 4 and verdict.details["passed_parts"] == 1
    assert mk._share(verdict.details) == 0.25
    assert mk.Mark(mk.WRONG, fraction=0.25, out_of=2).points == 0.5
    assert mk.Mark(mk.UNGRADABLE, fraction=0.25, out_of=2).points == 0  # partial credit only for a wrong answer
    assert mk.format_points(0.5) == "0.5" and mk.format_points(2.0) == "2"


def test_gradescope_results_follow_the_autograder_format():
    marks = {"nb05_context_shape": mk.Mark(mk.PASSED, "形状正确", out_of=1),
             "context_vector": mk.Mark(mk.WRONG, "第 2 个用例不对", fraction=0.5, out_of=2)}
    from helpers.grading.lms import gradescope_results

    results = gradescope_results(g.OK, marks, ["nb05_context_shape", "context_vector", "masked_softmax"], 5)
    assert results["score"] == 2 and results["max_score"] == 5  # 1 + 0.5 × 2 + 0
    assert [(t["score"], t["max_score"], t["status"]) for t in results["tests"]] == \
        [(1, 1, "passed"), (1, 2, "failed"), (0, 2, "failed")]
    assert all(set(t) == {"name", "score", "max_score", "output", "status"} for t in results["tests"])


# --- one batch, graded with one worker and with two --------------------------------------------------


@pytest.fixture(scope="module")
def two_ways(tmp_path_factory):
    base = tmp_path_factory.mktemp("workers")
    subs = base / "subs"
    _nb(subs / ".ann" / "05.ipynb", *HONEST)
    _nb(subs / "peek" / "05.ipynb", *PEEK)
    _nb(subs / "other" / "07.ipynb", "from helpers.exercises import check\ncheck('nb07a_aer_floor', 1)")
    (subs / "empty").mkdir()
    results = {}
    for workers in (1, 2):
        out = base / f"w{workers}" / "grades.csv"
        lines = []
        g.grade(subs, timeout=60, call_timeout=5, quick=True, log=lines.append, out=out, workers=workers,
                notebooks=["05a_computation_steps"])
        results[workers] = {"out": out, "log": lines}
    return results


def _files(out: Path) -> dict:
    folder = out.parent
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_two_workers_write_the_same_files_in_the_same_order(two_ways):
    one, two = _files(two_ways[1]["out"]), _files(two_ways[2]["out"])
    assert one.keys() == two.keys() and "grades_gradescope/_.ann/results.json" in one
    for name in one:
        if name != "grades.md":
            assert one[name] == two[name], name
    students = [row["student"] for row in csv.DictReader(two_ways[2]["out"].open(encoding="utf-8-sig"))]
    assert students == [".ann", "empty", "other", "peek"]


def test_every_folder_has_a_row_saying_what_happened(two_ways):
    rows = {r["student"]: r for r in csv.DictReader(two_ways[1]["out"].open(encoding="utf-8-sig"))}
    assert rows[".ann"]["total"] == "3" and rows[".ann"]["status"] == g.OK  # 1 + 2 points
    assert rows["empty"]["status"] == g.NOTHING_HANDED_IN
    assert g.NOT_IN_ASSIGNMENT in rows["other"]["status"] and "07a_heatmaps" in rows["other"]["status"]
    assert {r["max_score"] for r in rows.values()} == {"8"}


def test_a_reveal_called_before_the_check_gives_no_answer(two_ways):
    details = {(r["student"], r["exercise"]): r
               for r in csv.DictReader(g.report_paths(two_ways[1]["out"])[1].open(encoding="utf-8-sig"))}
    assert details["peek", "nb05_saturation"]["points"] == "0"
    assert details["peek", "nb05_saturation"]["verdict"] == mk.MISSING
    rows = {r["student"]: r for r in csv.DictReader(two_ways[1]["out"].open(encoding="utf-8-sig"))}
    assert "RevealTooEarly" in rows["peek"]["status"]


def test_the_log_counts_k_of_n_from_the_first_line(two_ways):
    log = two_ways[2]["log"]
    assert log[0].startswith("批改 (grading) 4 个学生") and "2 个并行进程" in log[0]
    assert [line.split("]")[0] for line in log if line.startswith("[")] == ["[1/4", "[2/4", "[3/4", "[4/4"]


def test_the_lms_csv_has_the_columns_canvas_and_moodle_map(two_ways):
    lms = two_ways[1]["out"].with_name("grades_lms.csv")
    rows = list(csv.reader(lms.open(encoding="utf-8-sig")))
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "05a_computation_steps (8)"]
    assert rows[1] == [".ann", "", ".ann", ".ann", "", "3"]


@pytest.fixture(scope="module", autouse=True)
def _no_leftover_reveal_state():
    yield
    assert rec._STATE["path"] is None  # no test left this process looking like a graded kernel


def test_timing_script_reports_each_stage(tmp_path):
    from helpers.grading import timing

    _nb(tmp_path / "05.ipynb", *HONEST)
    times = timing.measure(tmp_path / "05.ipynb", timeout=60, call_timeout=5)
    assert times["status"] == g.OK and times["points"] == 3
    for stage in ("setup", "kernel start", "recorder cell", "notebook cells", "marking"):
        assert times[stage] >= 0
    assert times["run"] >= times["kernel start"] + times["notebook cells"]
    shutil.rmtree(tmp_path, ignore_errors=True)
