"""Issue 32, items 1 and 2: isolation that holds or is not claimed, limits that hold.

Each test starts a "grader" of its own in a subprocess (``tests/jail_support.HARNESS``) where it
would otherwise risk pytest itself (a student who signals the grader), or runs one small notebook.
The bubblewrap tests need Linux, root and bubblewrap, as on this project's machine; elsewhere they
check that the grader does not claim isolation it lacks.
"""

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import nbformat
import pytest

from helpers.grading import guard as guard_mod
from helpers.grading import jail as jail_mod
from helpers.grading import runner as g
from helpers.grading import sandbox as sb
from tests.jail_support import HARNESS, PROBE

ROOT = Path(__file__).resolve().parents[1]
BWRAP = bool(shutil.which("bwrap")) and sys.platform.startswith("linux")
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def _env(**extra):
    return dict(os.environ, **{"PYTHONPATH": str(ROOT), **extra})


def _harness(tmp_path, python=sys.executable, bwrap=True, probe=PROBE):
    """What a jailed process saw, from a grader process of its own; and whether that grader survived."""
    subs = tmp_path / "subs"
    (subs / "zed").mkdir(parents=True, exist_ok=True)
    (subs / "zed" / "05.ipynb").write_text("{}")
    shm = f"canary-{uuid.uuid4().hex}"
    Path("/dev/shm", shm).write_text("x") if os.path.isdir("/dev/shm") else None
    secret = {"repo": str(ROOT), "subs": str(subs), "home": os.path.expanduser("~"), "shm": shm,
              "probe": probe, "bwrap": bwrap}
    try:
        done = subprocess.run([python, "-c", HARNESS, json.dumps(secret)], capture_output=True, text=True,
                              env=_env(), timeout=240, cwd=str(tmp_path))
    finally:
        if os.path.exists(f"/dev/shm/{shm}"):
            os.remove(f"/dev/shm/{shm}")
    lines = done.stdout.strip().splitlines()
    assert lines and lines[-1] == "survived", (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    report = json.loads(lines[-2])
    assert report["out"].strip(), report
    return report, json.loads(report["out"].strip().splitlines()[-1])


def _python_parents():
    """The folders above this Python's roots: the only entries a jailed process may see in the teacher's home."""
    names = set()
    for root in jail_mod.python_roots():
        names.update(Path(root).parts[1:])
    return names


def _assert_walled(seen, home):
    assert seen["uid"] != 0 and seen["euid"] != 0  # never root
    for what in ("shadow", "repo", "answer_key", "solutions", "submissions", "grader_proc", "grader_environ",
                 "shm_canary"):
        assert seen[what] != "done", what
    assert seen["plant_pth"] != "done" and seen["network"] != "done"
    assert seen["kill_parent"] != "done" and seen["kill_grader"] != "done"
    assert seen["repo_named_in"] == [] and not seen["environ_names_repo"]
    assert not seen["python_names_repo"] and seen["proc_names_repo"] == []
    assert seen["threads"] == ["1", "1"]  # issue 33: one thread in graded processes


# --- item 1: isolation that holds ---------------------------------------------------------------


@pytest.mark.skipif(not (BWRAP and AS_ROOT), reason="needs Linux, root and bubblewrap (this project's machine)")
def test_bubblewrap_is_used_as_root_and_walls_the_student_in(tmp_path):
    report, seen = _harness(tmp_path)
    assert report["level"] == "bwrap" and "bubblewrap" in report["summary"] and "root 运行" not in report["summary"]
    _assert_walled(seen, os.path.expanduser("~"))


@pytest.mark.skipif(not (BWRAP and AS_ROOT), reason="needs Linux, root and bubblewrap (this project's machine)")
@pytest.mark.parametrize("where", ["/tmp", "repo"])
def test_bubblewrap_is_used_wherever_the_venv_lives(tmp_path, where):
    """The round-4 report: a venv under /tmp was hidden by bubblewrap's own /tmp, and the grader fell
    back quietly to running students as root. A venv inside the checkout (``make lab``'s ``.venv``) is
    seen at a neutral path, so ``sys.prefix`` does not say where the repository is."""
    venv = (Path("/tmp") if where == "/tmp" else ROOT) / f".grade-venv-{uuid.uuid4().hex[:8]}"
    base = os.path.realpath(sys.base_prefix)
    try:
        subprocess.run([os.path.join(base, "bin", "python3"), "-m", "venv", "--without-pip", str(venv)], check=True)
        site = next(venv.glob("lib/python*/site-packages"))
        ours = next(p for p in sys.path if p.endswith("site-packages") and Path(p, "torch").is_dir())
        (site / "packages.pth").write_text(ours + "\n")  # this venv's packages, for a venv that has none
        report, seen = _harness(tmp_path, python=str(venv / "bin" / "python"))
    finally:
        shutil.rmtree(venv, ignore_errors=True)
    assert report["level"] == "bwrap", report["summary"]
    _assert_walled(seen, os.path.expanduser("~"))


@pytest.mark.skipif(not (BWRAP and AS_ROOT), reason="needs Linux, root and bubblewrap (this project's machine)")
def test_the_teachers_home_shows_only_the_way_to_python(tmp_path):
    probe = PROBE.replace('print(json.dumps(r))', 'r["home_entries"] = sorted(os.listdir(secret["home"])) '
                          'if os.path.isdir(secret["home"]) else []\nprint(json.dumps(r))')
    _, seen = _harness(tmp_path, probe=probe)
    assert set(seen["home_entries"]) <= _python_parents()


def test_without_an_os_sandbox_the_grader_says_so():
    jail = jail_mod.Isolation(use_bwrap=False)
    try:
        text = jail.summary()
        assert jail.level in ("user", "none") and "bubblewrap 沙箱" not in text
        assert "不是隔离" in text and "not isolation" in text  # the audit hook is a guard against accidents
        if AS_ROOT and jail.level == "none":
            assert "root" in text
        assert jail.describe().startswith("隔离 (isolation)：") and text in jail.describe()
    finally:
        jail.close()


def test_the_guard_is_never_called_isolation_or_a_sandbox():
    text = Path(guard_mod.__file__).read_text(encoding="utf-8").split('"""')[1]
    assert "guard against accidents" in text and "not isolation" in text
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    grading = readme[readme.index("各系统上的隔离"):readme.index("## 模型、评估与基准")]
    assert "审计钩子" in grading and "不是隔离" in grading


@pytest.mark.skipif(not (BWRAP and AS_ROOT), reason="needs Linux, root and bubblewrap (this project's machine)")
def test_a_killed_grader_leaves_no_student_process(tmp_path):
    marker = f"left-behind-{uuid.uuid4().hex}"
    # the student double-forks a process that would wait for the grader to die, then write
    orphan = ("import os, sys, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
              "        os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(30)', "
              f"{marker!r}])\n    os._exit(0)\n"
              "time.sleep(60)\n")
    harness = HARNESS.replace("capture_output=True, text=True, timeout=120", "timeout=120")
    secret = {"repo": str(ROOT), "subs": str(tmp_path), "home": "/", "shm": "x", "probe": orphan, "bwrap": True}
    proc = subprocess.Popen([sys.executable, "-c", harness, json.dumps(secret)], env=_env(), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not _with_marker(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _with_marker(marker), "the student's process did not start"
        os.kill(proc.pid, signal.SIGKILL)  # the grader dies (OOM kill, closed laptop lid, kill -9)
        proc.wait()
        deadline = time.monotonic() + 5
        while _with_marker(marker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _with_marker(marker)
    finally:
        for pid in _with_marker(marker):
            os.kill(pid, signal.SIGKILL)


def _with_marker(marker: str) -> list[int]:
    """The student's left-behind processes (not the harness, whose command line names the marker too)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
                if marker.encode() in argv and any(b"time.sleep(30)" in a for a in argv):
                    pids.append(int(entry))
            except OSError:
                continue
    return pids


SIGNAL_THE_GRADER = ("import os, signal, json\n"
                     "from helpers.grading import record as rec\n"
                     "def bad(weights, values):\n"
                     "    os.kill(os.getppid(), signal.SIGTERM)\n"
                     "    return weights @ values\n")


@pytest.mark.parametrize("bwrap", [False, True] if BWRAP else [False])
def test_the_function_sandbox_cannot_signal_the_grader(bwrap, tmp_path):
    script = ("import json, linecache, sys, torch\n"
              "from helpers.grading import jail as j, record as rec, sandbox as sb\n"
              f"src = {SIGNAL_THE_GRADER!r}\n"
              "linecache.cache['<cell>'] = (len(src), None, src.splitlines(True), '<cell>')\n"
              "ns = {'__name__': '__main__'}\nexec(compile(src, '<cell>', 'exec'), ns)\n"
              f"jail = j.Isolation(use_bwrap={bwrap})\n"
              "with sb.Sandbox(rec.function_bundle(ns['bad'], ns), call_timeout=20, jail=jail) as box:\n"
              "    try:\n        box.function(torch.ones(1, 2, 3), torch.ones(1, 3, 4))\n"
              "    except Exception as exc:\n        print(type(exc).__name__)\n"
              "jail.close()\nprint('survived')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=_env(), timeout=240)
    assert done.returncode == 0 and done.stdout.strip().endswith("survived"), (done.returncode, done.stderr[-2000:])


# --- the guard without an OS sandbox: dir_fd, os.link, execvpe, signals ---------------------------

GUARD_BYPASSES = r'''
import ctypes, json, os, signal, sys
target, work, grader = sys.argv[1], sys.argv[2], int(sys.argv[3])
results = {}
def attempt(name, fn):
    try:
        fn()
        results[name] = "done"
    except BaseException as exc:
        results[name] = type(exc).__name__
folder = os.path.dirname(target)
def with_dir_fd():
    fd = os.open(folder, os.O_RDONLY)
    os.close(os.open(os.path.basename(target), os.O_WRONLY | os.O_APPEND, dir_fd=fd))
attempt("dir_fd_write", with_dir_fd)
def dot_dot():
    os.chdir(work)
    os.close(os.open(os.path.relpath(target, work), os.O_WRONLY | os.O_APPEND))
attempt("relative_write", dot_dot)
def hard_link():
    os.link(target, os.path.join(work, "linked"))
    with open(os.path.join(work, "linked"), "a") as f:
        f.write("x")
attempt("hard_link", hard_link)
def sym_link():
    os.symlink(folder, os.path.join(work, "outside"))
    with open(os.path.join(work, "outside", os.path.basename(target)), "a") as f:
        f.write("x")
attempt("symlink", sym_link)
def unlink_at():
    fd = os.open(folder, os.O_RDONLY)
    os.unlink(os.path.basename(target), dir_fd=fd)
attempt("unlink_dir_fd", unlink_at)
attempt("execvpe", lambda: ctypes.CDLL(None).execvpe)
attempt("kill_grader", lambda: os.kill(grader, signal.SIGTERM))
attempt("killpg", lambda: os.killpg(grader, signal.SIGTERM))
print(json.dumps(results))
'''


def test_the_guard_refuses_dir_fd_links_execvpe_and_signals(tmp_path):
    """Without bubblewrap the audit hook is all there is between a student and the teacher's files:
    the plain ``os`` calls that went round it in round 4 are refused (it stays a guard, not a wall)."""
    outside, work = tmp_path / "teacher", tmp_path / "work"
    outside.mkdir()
    work.mkdir()
    target = outside / "grades.csv"
    target.write_text("ann,1\n")
    (work / "sitecustomize.py").write_bytes(Path(guard_mod.__file__).read_bytes())
    env = _env(PYTHONPATH=str(work), GRADE_GUARD=json.dumps({"deny": [], "write": [str(work)]}))
    grader = subprocess.Popen(["sleep", "60"], start_new_session=True)  # stands for the grader: not pytest itself
    try:
        done = subprocess.run([sys.executable, "-c", GUARD_BYPASSES, str(target), str(work), str(grader.pid)],
                              capture_output=True, text=True, env=env, timeout=60, cwd=str(work))
        assert grader.poll() is None  # not signalled
    finally:
        grader.kill()
        grader.wait()
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout.strip().splitlines()[-1])
    assert all(v == "PermissionError" for v in results.values()), results
    assert target.read_text() == "ann,1\n"


# --- item 2: limits that hold ---------------------------------------------------------------------


def _notebook(path: Path, *sources: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))


def test_the_notebook_time_limit_is_wall_clock_for_the_whole_notebook(tmp_path):
    """Round 4: after the deadline each cell still got 1 s (60 cells of 0.9 s with --timeout 30 ran 66 s, 完成)."""
    _notebook(tmp_path / "slow.ipynb", "from helpers.exercises import check\ncheck('nb05_context_shape', (2, 5, 128))",
              *["import time\ntime.sleep(0.9)"] * 30)
    jail = jail_mod.Isolation()  # once per batch: not part of any notebook's time
    try:
        start = time.monotonic()
        sub = g.run_notebook(g.Submission(tmp_path / "slow.ipynb", "slow"), timeout=8, quick=True, jail=jail)
        took = time.monotonic() - start
    finally:
        jail.close()
    assert sub.status == g.TIMEOUT, (sub.status, sub.detail, took)
    assert took < 8 + 2, took  # the limit (kernel start included), plus cleaning up
    assert "nb05_context_shape" in sub.answers  # what it recorded before the limit is kept


def test_marking_has_its_own_overall_limit(tmp_path):
    """Each call of a slow function stays under --call-timeout; all of them together stop at the marking limit."""
    source = "import time\ndef slow(weights, values):\n    time.sleep(0.8)\n    return weights @ values\n"
    ns = {"__name__": "__main__"}
    import linecache

    from helpers.grading import record as rec

    linecache.cache["<slow>"] = (len(source), None, source.splitlines(True), "<slow>")
    exec(compile(source, "<slow>", "exec"), ns)
    bundle = rec.function_bundle(ns["slow"], ns)
    answers = {i: dict(bundle, kind="function") for i in ("context_vector", "masked_softmax", "luong_step")}
    sub = g.Submission(tmp_path / "x.ipynb", "x", status=g.OK, answers=answers, cells=[source],
                       notebook="05a_computation_steps")
    jail = jail_mod.Isolation(use_bwrap=False)
    try:
        start = time.monotonic()
        with sb.marking_limit(4):
            marks = g.mark_submission(sub, list(answers), call_timeout=5, jail=jail, deny=())
        took = time.monotonic() - start
    finally:
        jail.close()
    assert took < 4 + 3, took
    assert any("marking time limit" in m.message for m in marks.values()), marks


def test_an_oversized_answers_file_is_refused_before_it_is_read(tmp_path):
    import tracemalloc

    path = tmp_path / "answers.pt"
    with open(path, "wb") as f:
        f.truncate(sb.MAX_FILE + (64 << 20))  # sparse: large on paper, nothing on disk
    tracemalloc.start()
    answers, problem = sb.read_answers(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert answers == {} and "answer too large" in problem
    assert peak < (4 << 20), peak


def test_one_string_shared_many_times_is_refused_not_expanded(tmp_path):
    """Round 3: a 1 MB answers file of references to one string made the grader allocate 1.3 GB."""
    import tracemalloc

    text = "x" * 4096
    path = tmp_path / "answers.pt"
    path.write_bytes(sb.dumps({"nb05_context_shape": {"kind": "value", "value": [text] * 100_000}}))
    assert path.stat().st_size < (2 << 20)  # 100,000 references: a small file, 400 MB once expanded
    tracemalloc.start()
    answers, _ = sb.read_answers(path)
    mark = g.mark("nb05_context_shape", answers.get("nb05_context_shape"), call_timeout=1)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert mark.verdict == g.UNGRADABLE and "answer too large" in mark.message
    assert peak < (64 << 20), peak


def test_shared_nested_lists_in_a_function_record_are_refused(tmp_path):
    shared = [0]
    for _ in range(40):
        shared = [shared, shared]
    path = tmp_path / "answers.pt"
    path.write_bytes(sb.dumps({"context_vector": {"kind": "function", "name": "f", "imports": [shared],
                                                  "data": {"x": shared}, "sources": [shared]}}))
    assert path.stat().st_size < (64 << 10)
    start = time.monotonic()
    answers, _ = sb.read_answers(path)
    mark = g.mark("context_vector", answers.get("context_vector"), call_timeout=1, cells=[])
    assert time.monotonic() - start < 10
    assert mark.verdict == g.UNGRADABLE and "answer too large" in mark.message


FLOOD = "import sys\nsys.stdout.write('x' * (400 << 20))\nsys.stdout.flush()"


def test_an_output_flood_does_not_reach_the_graders_memory(tmp_path):
    _notebook(tmp_path / "flood.ipynb", FLOOD, "from helpers.exercises import check\ncheck('nb05_context_shape', (2, 5, 128))")
    script = ("import json, resource, sys\nfrom pathlib import Path\nfrom helpers.grading import runner as g\n"
              "import helpers.exercises, torch, nbclient, jupyter_client\n"
              "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
              f"sub = g.run_notebook(g.Submission(Path({str(tmp_path / 'flood.ipynb')!r}), 'f'), timeout=120, quick=True)\n"
              "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
              "print(json.dumps({'grew_mb': (after - before) / 1024, 'status': sub.status, 'answers': sorted(sub.answers)}))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=_env(), timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["grew_mb"] < 150, result  # the flood is 400 MB
    assert result["answers"] == ["nb05_context_shape"], result


def _as_in_a_terminal():
    """A command typed in a terminal starts with Ctrl-C's default action. A test suite started in the
    background of a non-interactive shell (as CI may be) inherits SIGINT *ignored*, and Python then never
    raises KeyboardInterrupt: reset it, as a terminal would have it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_the_batch_with_a_nonzero_exit_and_names_no_student(tmp_path, workers):
    for student in ("ann", "bob")[:workers]:
        _notebook(tmp_path / "subs" / f"{student}.ipynb",
                  "from helpers.exercises import check\ncheck('nb05_context_shape', (2, 5, 128))", "import time\ntime.sleep(60)")
    out = tmp_path / "grades.csv"
    proc = subprocess.Popen([sys.executable, "-m", "helpers.grading", str(tmp_path / "subs"), "--out", str(out),
                             "--timeout", "120", "--workers", str(workers)], env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True, cwd=str(tmp_path), preexec_fn=_as_in_a_terminal)
    opening = [proc.stdout.readline() for _ in range(2)]  # "批改 … 1 个学生", then the isolation line
    assert "隔离" in opening[1], opening  # grading has begun
    time.sleep(8)  # the kernel is running ann's notebook
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C in a terminal: the foreground process group
    rest, _ = proc.communicate(timeout=60)
    assert proc.returncode != 0, rest
    assert "ann" not in rest and "bob" not in rest and "interrupted" in rest, rest
    rows = list(csv.DictReader(out.open(encoding="utf-8-sig"))) if out.exists() else []
    assert rows == [], rows


def test_each_notebook_gets_a_fresh_private_folder_no_one_can_prepare():
    """Round 4 (without an OS sandbox): every notebook ran in the same ``<base>/nb`` folder, so one
    student could prepare what the next one's kernel read. Now each gets a new folder with a random
    name, and the launchers and their configs live in a folder only the grader can open."""
    jail = jail_mod.Isolation(use_bwrap=False)
    try:
        first, second = jail.private("nb"), jail.private("nb")
        assert first != second and first.parent == second.parent == jail.base
        assert len(first.name) > len("nb-") + 6  # a random part: not guessable from the previous one
        command = jail.prefix(first, jail.env(first, jail.guard_rules(first)))
        launcher, config = Path(command[1]), Path(command[2])
        assert launcher.parent == config.parent == jail.grader_dir
        assert not str(launcher).startswith(str(first)) and (jail.grader_dir.stat().st_mode & 0o077) == 0
        assert (config.stat().st_mode & 0o077) == 0
        if jail.level == "none":  # the teacher's own user: the guard names the grader's folder and /proc entry
            rules = jail.guard_rules(first)
            assert str(jail.grader_dir) in rules["deny"] and f"/proc/{os.getpid()}" in rules["deny"]
    finally:
        jail.close()


def test_the_private_copy_carries_the_corpus_cache_so_no_notebook_regenerates_the_corpus(tmp_path):
    """Each graded notebook that loaded the corpus generated it again in its copy (16 s idle, ~45 s busy:
    a blank 05b timed out at 40 s). The snapshot now carries the teacher's cache file for this code."""
    from helpers import corpus

    snap = jail_mod.Snapshot()
    cached = [rel for rel in snap.files if "/.cache/" in rel]
    assert cached == [f"helpers/corpus/.cache/corpus-s0-{corpus._source_key(0)}.json.gz"]
    snap.write(tmp_path / "lib")
    probe = ("import helpers.corpus as c\n"
             "def refuse(seed):\n    raise SystemExit('generated instead of reading the cache')\n"
             "c._generate_fresh = refuse\n"
             "print(len(c.load_corpus('test')))\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "lib")}
    done = subprocess.run([sys.executable, "-S", "-c", f"import sys; sys.path.insert(0, {str(tmp_path / 'lib')!r})\n"
                           + probe], env=env, capture_output=True, text=True, cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr[-1500:]
    assert int(done.stdout.strip()) == len(corpus.load_corpus("test"))
