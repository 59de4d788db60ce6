"""Hostile submissions against the grade command (issue 25, items 1-8; issue 24, items 6-7).

One batch (module fixture, a few small notebooks in quick mode) holds two honest students, a hostile
neighbour, a thief of the answer key, a student with two files for one notebook and a notebook with
malformed cells; the other tests need no kernel.
"""

import csv
import hashlib
import io
import json
import os
import time
import zipfile
from pathlib import Path

import pytest
import torch

from helpers.grading import report
from helpers.grading import runner as g
from helpers.grading import sandbox as sb
from helpers.grading import submissions as subs_mod
from tests.hostile_support import CJK

ROOT = Path(__file__).resolve().parents[1]
CONTEXT = "import torch\ndef my_context_vector(weights, values):\n    return weights @ values\n"
HONEST = ["from helpers.exercises import check\ncheck('nb05_context_shape', (2, 5, 128))",
          CONTEXT + "check('context_vector', my_context_vector)"]


def _nb(path: Path, *sources, raw_cells=None) -> None:
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": s} for s in sources]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"cells": cells + (raw_cells or []), "metadata": {}, "nbformat": 4, "nbformat_minor": 5}),
                    encoding="utf-8")


def _neighbour(subs: Path, out: Path) -> list[str]:
    """A student who knows where the teacher's files are and tries to change them."""
    metrics, victim = ROOT / "helpers/pretrained/metrics.json", subs / "zed/05.ipynb"  # graded after eve
    return [
        "import os, time, tempfile\nfrom helpers.exercises import check\ntried = []\n"
        f"for path in ({str(metrics)!r}, {str(victim)!r}):\n"
        "    try:\n        with open(path, 'a') as f:\n            f.write(' ')\n        tried.append('wrote')\n"
        "    except Exception as exc:\n        tried.append(type(exc).__name__)\n",
        # a process left behind that would rewrite grades.csv after the grader exits
        "pid = os.fork()\nif pid == 0:\n    os.setsid()\n    time.sleep(6)\n"
        f"    try:\n        open({str(out)!r}, 'w').write('HACKED')\n    finally:\n        os._exit(0)\n",
        # fill TMPDIR for whoever comes next
        "try:\n    with open(os.path.join(tempfile.gettempdir(), 'fill'), 'wb') as f:\n"
        "        f.write(b'0' * (64 << 20))\nexcept Exception:\n    pass\n",
        "check('nb05_context_shape', (2, 5, 7))",
    ]


# one file per course notebook (the grader marks a file for the notebook whose exercises it checks most):
# the 05b exercise is in a file of its own
THIEF_05B = ["from helpers.exercises import EXERCISES, check\n"
             "check('nb05_padding_weight', EXERCISES['nb05_padding_weight'].solution + '')"]  # raises: nothing to copy
THIEF = [
    "import copy\nfrom helpers.exercises import EXERCISES, check\n"
    "check('nb05_context_shape', copy.deepcopy(EXERCISES['nb05_context_shape'].solution))",
    "import helpers.attention\ncheck('masked_softmax', lambda s, m: helpers.attention.masked_softmax(s, m))",
    # a stub while linecache holds the library's source for the recorder to save
    "import inspect, linecache, helpers.attention\n"
    "def context_vector(weights, values):\n    return None\n"
    "text = inspect.getsource(helpers.attention.context_vector)\n"
    "fname = context_vector.__code__.co_filename\n"
    "linecache.cache[fname] = (len(text), None, text.splitlines(True), fname)\n"
    "context_vector.__code__ = context_vector.__code__.replace(co_firstlineno=1)\n"
    "check('context_vector', context_vector)",
    # the import blocker removed, then the answer key imported
    "import sys\nsys.meta_path[:] = [f for f in sys.meta_path if 'Block' not in type(f).__name__]\n"
    "from helpers.exercises.nb05_steps import luong_step as ref\ncheck('luong_step', ref)",
]


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    base = tmp_path_factory.mktemp("hostile")
    subs, out = base / "subs", base / "out" / "grades.csv"
    _nb(subs / "ann/05.ipynb", *HONEST)
    _nb(subs / "zed/05.ipynb", *HONEST)
    _nb(subs / "eve/05.ipynb", *_neighbour(subs, out))
    _nb(subs / "mal/05.ipynb", *THIEF)
    _nb(subs / "mal/05b.ipynb", *THIEF_05B)
    _nb(subs / "dan/hw.ipynb", *HONEST)
    _nb(subs / "dan/hw_old.ipynb", "from helpers.exercises import check\ncheck('nb05_context_shape', None)",
        "check('context_vector', None)")
    _nb(subs / "odd/05.ipynb", *HONEST, "# check('nb07a_aer_floor', 1) in a comment adds no column",
        raw_cells=[{"cell_type": "code", "source": 5}, {"cell_type": "code", "source": None}, {"cell_type": "code"}])
    metrics = hashlib.sha256((ROOT / "helpers/pretrained/metrics.json").read_bytes()).hexdigest()
    victim = (subs / "zed/05.ipynb").read_bytes()
    columns, _ = g.grade(subs, timeout=60, call_timeout=5, quick=True, log=lambda *_: None, out=out,
                         notebooks=["05a_computation_steps", "05b_computation_extras"])
    time.sleep(7)  # longer than the neighbour's left-behind process waits
    table = {r["student"]: r for r in csv.DictReader(out.open(encoding="utf-8-sig"))}
    details = {(r["student"], r["exercise"]): r
               for r in csv.DictReader(g.report_paths(out)[1].open(encoding="utf-8-sig"))}
    return {"columns": columns, "table": table, "details": details, "out": out, "subs": subs,
            "metrics_before": metrics, "victim_before": victim}


# --- item 1: malformed cells ------------------------------------------------------------------------


def test_a_cell_whose_source_is_no_text_does_not_stop_the_run(batch):
    row = batch["table"]["odd"]
    assert row["total"] == "3" and "source" in row["status"]  # graded (1 + 2 points), and the odd cells are named
    assert batch["table"]["ann"]["total"] == "3"


def test_parse_runs_a_malformed_cell_as_empty():
    sub = subs_mod.Submission(Path("x.ipynb"), "x", data=json.dumps(
        {"cells": [{"cell_type": "code", "source": 5}, {"cell_type": "code"}, {"cell_type": "code", "source": ["a", "b"]}]}
    ).encode())
    assert subs_mod.parse(sub) and sub.cells == ["", "", "ab"] and len(sub.problems) == 2


# --- item 2: GBK file names -------------------------------------------------------------------------


def test_a_gbk_file_name_reaches_the_report_as_chinese(tmp_path):
    name = os.fsdecode("张三".encode("gbk") + b".ipynb")
    (tmp_path / "subs").mkdir()
    (tmp_path / "subs" / name).write_text("{}")
    (sub,) = g.find_submissions(tmp_path / "subs")
    assert sub.student == "张三"
    r = report.Reports(tmp_path / "grades.csv", [])
    r.add(sub.student, g.OK, {})
    r.close()
    assert "张三" in (tmp_path / "grades.csv").read_text(encoding="utf-8-sig")


# --- item 3: --out, rows kept on a crash -----------------------------------------------------------


def test_out_naming_an_existing_folder_is_refused_before_grading(tmp_path, capsys):
    from helpers.grading.__main__ import main

    (tmp_path / "subs").mkdir()
    (tmp_path / "taken").mkdir()
    start = time.monotonic()
    assert main([str(tmp_path / "subs"), "--out", str(tmp_path / "taken")]) == 2
    text = capsys.readouterr().out
    assert time.monotonic() - start < 5 and CJK.search(text) and "existing folder" in text


def test_ctrl_c_keeps_every_finished_row(tmp_path, monkeypatch):
    for name in ("a1", "a2", "a3"):
        _nb(tmp_path / "subs" / f"{name}.ipynb", "from helpers.exercises import check\ncheck('nb05_context_shape', 1)")
    calls = []

    def fake_run(sub, **kwargs):  # the kernel is not what this test is about
        calls.append(sub.student)
        if len(calls) == 3:
            raise KeyboardInterrupt
        sub.status, sub.answers = g.OK, {"nb05_context_shape": {"kind": "value", "value": (2, 5, 128)}}
        return sub

    monkeypatch.setattr(g, "run_notebook", fake_run)
    out = tmp_path / "grades.csv"
    with pytest.raises(KeyboardInterrupt):
        g.grade(tmp_path / "subs", out=out, log=lambda *_: None)
    rows = list(csv.DictReader(out.open(encoding="utf-8-sig")))
    assert [r["student"] for r in rows] == ["a1", "a2"] and all(r["nb05_context_shape"] == "1" for r in rows)


def test_a_row_is_on_disk_as_soon_as_it_is_added(tmp_path):
    r = report.Reports(tmp_path / "grades.csv", ["nb05_context_shape"])
    r.add("ann", g.OK, {"nb05_context_shape": g.Mark(g.PASSED)})
    assert "ann,完成 (ok),1,1,1" in (tmp_path / "grades.csv").read_text(encoding="utf-8-sig")  # before close()
    r.close()


# --- item 4: the answer key is out of reach --------------------------------------------------------


def test_copies_of_the_answer_key_and_the_library_earn_nothing(batch):
    d, row = batch["details"], batch["table"]["mal"]
    assert row["total"] == "0"
    assert d["mal", "nb05_context_shape"]["verdict"] == g.REFERENCE  # deepcopy of the withheld key
    assert d["mal", "nb05_padding_weight"]["verdict"] == g.MISSING  # `solution + ''` raised in the kernel
    assert d["mal", "masked_softmax"]["verdict"] == g.REFERENCE  # calls helpers.attention.masked_softmax
    assert d["mal", "context_vector"]["verdict"] == g.REFERENCE  # linecache stub: the library's source, not typed
    assert d["mal", "luong_step"]["verdict"] == g.MISSING  # helpers.exercises.nb05_steps is not there


# --- item 5: memory -------------------------------------------------------------------------------


def _deflated(data: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, src.read(info))
    return buf.getvalue()


def test_a_deflated_answers_file_is_refused_before_it_expands():
    with pytest.raises(sb.AnswerTooLarge):
        sb.loads(_deflated(sb.dumps({"x": torch.zeros(1000)})))


def test_shared_nested_lists_are_refused_not_expanded():
    shared = [0]
    for _ in range(40):
        shared = [shared, shared]  # 2**40 leaves once expanded, a few hundred bytes on disk
    back = sb.loads(sb.dumps({"kind": "value", "value": shared}))
    mark = g.mark("nb05_context_shape", back, call_timeout=1)
    assert mark.verdict == g.UNGRADABLE and "answer too large" in mark.message


def test_a_huge_stride_zero_tensor_is_refused():
    huge = torch.zeros(1).expand(100_000, 100_000)  # 10**10 elements over one float
    back = sb.loads(sb.dumps({"kind": "value", "value": huge}))
    assert g.mark("nb05_context_shape", back, call_timeout=1).verdict == g.UNGRADABLE


def test_notebook_output_is_not_kept():
    client = g._client_class()(__import__("nbformat").v4.new_notebook())
    outs = []
    msg = {"msg_type": "stream", "content": {"name": "stdout", "text": "x" * (8 << 20)}, "parent_header": {}}
    client.output(outs, msg, None, 0)
    assert outs == []


# --- item 6: columns from the registry, one file per notebook, --timeout ---------------------------


def test_a_check_in_a_comment_adds_no_column(batch):
    from helpers.exercises import EXERCISES

    assert set(batch["columns"]) == {i for i, ex in EXERCISES.items() if ex.notebook in ("05a_computation_steps", "05b_computation_extras")}
    assert subs_mod.called_ids(["# check('nb07a_aer_floor', 1)\nx = 'check(\"context_vector\", f)'"], {"context_vector": 0,
                                "nb07a_aer_floor": 0}) == []


def test_one_extra_notebook_does_not_change_the_assignment():
    from helpers.exercises import EXERCISES

    made = [subs_mod.Submission(Path(f"{s}.ipynb"), s, notebook=nb) for s, nb in
            [("a", "05a_computation_steps"), ("b", "05a_computation_steps"), ("c", "05a_computation_steps"),
             ("c", "07a_heatmaps")]]
    assert subs_mod.assignment(made, EXERCISES) == ["05a_computation_steps"]


def test_an_old_blank_file_does_not_zero_the_good_one(batch):
    row = batch["table"]["dan"]
    assert row["total"] == "3" and "hw_old.ipynb" in row["status"]


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-1"])
def test_a_timeout_that_is_no_positive_number_is_refused(value, tmp_path, capsys):
    from helpers.grading.__main__ import main

    with pytest.raises(SystemExit):
        main([str(tmp_path), "--timeout", value])
    err = capsys.readouterr().err
    assert CJK.search(err) and "finite number" in err


# --- item 7: symlinks, formulas -------------------------------------------------------------------


def test_a_symlink_is_not_followed_out_of_the_submissions(tmp_path):
    (tmp_path / "subs" / "eve").mkdir(parents=True)
    (tmp_path / "subs" / "eve.ipynb").symlink_to("/etc/passwd")
    (tmp_path / "subs" / "eve" / "etc").symlink_to("/etc", target_is_directory=True)
    found = g.find_submissions(tmp_path / "subs")
    assert found and all(s.status == g.SYMLINK and s.data is None for s in found)


def test_csv_cells_cannot_become_formulas(tmp_path):
    r = report.Reports(tmp_path / "grades.csv", [])
    r.add('=HYPERLINK("http://x","y")', "@SUM(1)", {})
    r.close()
    (row,) = list(csv.DictReader((tmp_path / "grades.csv").open(encoding="utf-8-sig")))
    assert row["student"].startswith("'=") and row["status"].startswith("'@")


# --- item 8: the neighbour cannot touch the teacher's files or the classmates ---------------------


def test_the_neighbour_changed_no_file_of_the_teacher_or_a_classmate(batch):
    metrics = hashlib.sha256((ROOT / "helpers/pretrained/metrics.json").read_bytes()).hexdigest()
    assert metrics == batch["metrics_before"]
    assert (batch["subs"] / "zed/05.ipynb").read_bytes() == batch["victim_before"]


def test_no_process_of_the_neighbour_outlives_the_grader(batch):
    assert "HACKED" not in batch["out"].read_text(encoding="utf-8-sig")


def test_honest_students_get_their_grades_next_to_a_hostile_neighbour(batch):
    t, d = batch["table"], batch["details"]
    for student in ("ann", "zed"):  # before and after the neighbour
        assert t[student]["total"] == "3" and t[student]["status"] == g.OK  # 1 + 2 points
        assert d[student, "context_vector"]["verdict"] == g.PASSED
    assert t["eve"]["total"] == "0"


# --- issue 24, items 6 and 7 ---------------------------------------------------------------------


def test_grades_csv_has_a_bom_for_excel_and_reads_back_with_csv(batch):
    raw = batch["out"].read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert next(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))[0] == "student"


def test_kernels_talk_over_ipc_not_tcp(tmp_path):
    from helpers.grading.jail import Isolation

    jail = Isolation(use_bwrap=False)
    try:
        km = g._kernel_manager(jail, tmp_path, {}, [])(kernel_name="python3")
        assert km.transport == "ipc" and km.ip.startswith(str(tmp_path))
    finally:
        jail.close()
