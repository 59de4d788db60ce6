"""The teachers' grading command: ``python -m helpers.grading SUBMISSIONS/ --out grades.csv``.

Conventions follow nbgrader: one row per student, one column per exercise (points), a total and
the maximum. Which files count and which notebooks form the columns: ``grading.submissions``. The
reports, written row by row: ``grading.report``. Where graded code runs: ``grading.jail``.

How a verdict is reached, outside the student's kernel:

1. each notebook runs top to bottom in a fresh kernel (nbclient, over local IPC sockets, not TCP),
   started from a private copy of the files it needs (``grading.jail``: no checkers, no reference
   answers, limits, another user and bubblewrap where available), with a time limit for the whole
   notebook; a first cell makes ``check(...)`` record the answer instead of judging it;
2. the recorded answers are read back as data (``torch.load(weights_only=True)``, size-bounded);
3. the grader calls the real ``check(exercise_id, answer)`` in its own process: values directly,
   functions through ``grading.sandbox.Sandbox`` (the student's source re-created in a child process
   of its own, where the library's implementation of that exercise refuses to run).

Students are graded one after another, or side by side with ``workers`` processes (``--workers``,
default every core): each worker has an isolation of its own (its own private folders; as root, its
own sandbox user id, so that cleaning up after one student never touches another worker's kernel);
the rows are written in the students' order, identical to one worker's. Progress: "[k/N]" lines with
an estimate of the time left from the first finished student on.

A function whose recorded source is not in the notebook handed in, or that calls the library's
implementation of its exercise, or the withheld reference itself, is marked 交了参考答案. A notebook
that errors, hangs or is not a notebook gets a row saying so, and the batch goes on.
"""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path

from helpers.grading import jail as jail_mod
from helpers.grading import sandbox
from helpers.grading.lms import lms_paths
from helpers.grading.marks import (  # noqa: F401 - re-exported: runner.PASSED, runner.mark, ...
    MISSING,
    PASSED,
    REFERENCE,
    TIMED_OUT,
    UNFINISHED,
    UNGRADABLE,
    WRONG,
    Mark,
    mark,
    mark_submission,
    twins,
)
from helpers.grading.report import Reports, all_report_paths, report_paths
from helpers.grading.submissions import MAX_NOTEBOOK, Submission, assignment, identify, parse, student_folders
from helpers.grading.submissions import find_submissions as _find
from helpers.runtime.errors import HelpersError

OK, NOT_NOTEBOOK, ERROR = "完成 (ok)", "不是笔记本 (not a notebook)", "执行出错 (error)"
TIMEOUT = TIMED_OUT  # "超时 (timeout)": the run's status, and the verdict of each exercise it never reached
SYMLINK, TOO_BIG = "符号链接，未跟随 (symlink, not followed)", f"文件超过 {MAX_NOTEBOOK >> 20} MB (file too large)"
NO_EXERCISES = "没有调用本课程任何练习的 check(...)，未运行 (no check(...) of a course exercise; not run)"
NOT_IN_ASSIGNMENT = "不属于本次作业的笔记本，未运行 (a course notebook outside this assignment; not run)"
NOTHING_HANDED_IN = "文件夹里没有笔记本 (no notebook in the folder)"
NOT_COUNTED = "另有得分更高的文件，未计入 (another file scored higher, not counted)"
UNREADABLE = "无法读取 (unreadable)"
MAX_ERROR_TEXT = 2000  # characters of an error output kept; every other output is dropped

RECORDER_CELL = (
    "# 评分用 (grading): check(...) records the answer; the grader decides outside this kernel\n"
    "from helpers.grading.record import install_recorder as _install_recorder\n"
    "_install_recorder({path!r})\n"
    "del _install_recorder\n"
)


class GradingError(HelpersError):
    """A bad option of the grade command (bilingual message)."""


def find_submissions(root: Path) -> list[Submission]:
    """Every file under ``root`` with its student's name (see ``grading.submissions``)."""
    return _find(root, symlink_status=SYMLINK, big_status=TOO_BIG, unreadable_status=UNREADABLE)


def _client_class():
    from nbclient import NotebookClient

    class BoundedClient(NotebookClient):
        """Keeps only error outputs (truncated) and no widget state: a notebook cannot fill the grader's memory."""

        def output(self, outs, msg, display_id, cell_index):
            if msg["msg_type"] != "error":
                return None
            content = msg["content"]
            out = {"output_type": "error", "ename": str(content.get("ename", ""))[:200],
                   "evalue": str(content.get("evalue", ""))[:MAX_ERROR_TEXT], "traceback": []}
            if len(outs) < 3:
                import nbformat

                outs.append(nbformat.from_dict(out))
            return None

        def handle_comm_msg(self, outs, msg, cell_index):
            return None

    return BoundedClient


MAX_MESSAGE = 8 << 20  # bytes of one message from a kernel; a larger one is dropped by ZeroMQ before it is read


def _bounded_client_class():
    from jupyter_client.asynchronous import AsyncKernelClient

    class BoundedKernelClient(AsyncKernelClient):
        """Sockets that refuse any message over ``MAX_MESSAGE`` (``ZMQ_MAXMSGSIZE``): an output flood of a
        notebook is dropped by ZeroMQ before the grader allocates it (it was kept whole, 1.3 GB)."""

        def _create_connected_socket(self, channel, identity=None):
            import zmq
            from jupyter_client.connect import channel_socket_types

            sock = self.context.socket(channel_socket_types[channel])
            sock.linger = 1000
            sock.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE)
            if identity:
                sock.identity = identity
            sock.connect(self._make_url(channel))
            return sock

    return BoundedKernelClient


def _kernel_manager(jail, work: Path, env: dict, pids: list):
    from jupyter_client.manager import (
        AsyncKernelManager,  # nbclient's default: its client never blocks the loop
    )

    client_class = _bounded_client_class()

    class Jailed(AsyncKernelManager):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.connection_file = str(work / "kernel.json")
            self.client_factory = client_class
            if os.name == "posix":  # IPC sockets in the private folder: no TCP port, no "without encryption" line
                self.transport, self.ip = "ipc", str(work / "k")

        def format_kernel_cmd(self, extra_arguments=None):
            return jail.prefix(work, env) + super().format_kernel_cmd(extra_arguments)

        async def _async_launch_kernel(self, kernel_cmd, **kw):
            await super()._async_launch_kernel(kernel_cmd, **kw)
            process = getattr(self.provisioner, "process", None)
            if process is not None:
                pids.append(process.pid)

    return Jailed


def _guard_rules(work: Path, deny, jail=None) -> dict:
    if jail is not None:
        return jail.guard_rules(work, deny)
    return {"deny": [str(jail_mod.ROOT / "helpers"), str(jail_mod.ROOT / "notebooks"), *map(str, deny)],
            "write": [str(work)]}


def _kill_groups(pids) -> None:
    import signal

    for pid in list(pids):
        try:
            os.killpg(pid, signal.SIGKILL)
        except (OSError, AttributeError):  # Windows: no process groups
            try:
                os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))
            except OSError:
                pass


def _quiet_about_abandoned_tasks(loop, context) -> None:
    if "destroyed but it is pending" not in str(context.get("message", "")):
        loop.default_exception_handler(context)


def _execute(client, pids: list, deadline: float, **kwargs) -> str | None:
    """Run ``client.execute`` in a thread of its own while this thread keeps the clock and the keyboard.

    At ``deadline`` (wall clock, whatever the cells do) or on the teacher's Ctrl-C (SIGINT) the kernel's
    process group is killed from here, and nbclient, seeing a dead kernel, returns. Returns "timeout",
    "interrupt" or None; re-raises what ``execute`` raised. In its own thread nbclient installs no signal
    handlers of its own (in the main thread it swallowed Ctrl-C and the batch went on)."""
    import threading

    failure: list[BaseException] = []

    def target():
        import asyncio

        from jupyter_core.utils import ensure_event_loop

        loop = ensure_event_loop()  # the loop nbclient will use in this thread
        loop.set_exception_handler(_quiet_about_abandoned_tasks)
        try:
            client.execute(**kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            failure.append(exc)
        finally:  # a killed kernel leaves nbclient's output poller pending: end it here, not at exit
            try:
                pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
                for task in pending:
                    task.cancel()
                if pending:
                    loop.run_until_complete(asyncio.wait(pending, timeout=2))
                loop.close()
            except Exception:  # noqa: BLE001 - tidying up only
                pass

    thread = threading.Thread(target=target, name="notebook", daemon=True)
    reason = None
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.05)
            if time.monotonic() >= deadline and thread.is_alive():
                reason = reason or "timeout"
                _kill_groups(pids)  # again until nbclient gives up (a kernel may still be starting)
                thread.join(0.2)
    except KeyboardInterrupt:
        reason = "interrupt"
        _kill_groups(pids)
        thread.join(10)
    if reason is None and failure:
        raise failure[0]
    return reason


def run_notebook(sub: Submission, *, timeout: float, quick: bool, jail=None, deny=()) -> Submission:
    """Execute one submission in a fresh jailed kernel, prepended with the recorder; fill in status and answers.

    ``timeout`` is wall clock for the whole notebook, from the kernel's start to its last cell; a Ctrl-C
    (SIGINT) while it runs ends the kernel and raises ``KeyboardInterrupt`` (the student gets no row)."""
    import nbformat
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    from helpers.exercises import EXERCISES

    own = jail is None
    jail = jail or jail_mod.Isolation()
    if sub.data is None and not sub.status:
        try:
            sub.data = sub.path.read_bytes()[: MAX_NOTEBOOK + 1]
        except OSError as exc:
            sub.status, sub.detail = NOT_NOTEBOOK, type(exc).__name__
    if sub.nb is None and (sub.status or not parse(sub)):
        sub.status = sub.status or NOT_NOTEBOOK
        return sub
    sub.notebook = sub.notebook or identify(sub, EXERCISES)
    work = jail.private("nb")
    interrupted = False
    try:
        jail.snapshot.write(work / "lib")
        answers_file = work / "answers.pt"
        nb = nbformat.from_dict(sub.nb)
        nb.cells.insert(0, nbformat.v4.new_code_cell(RECORDER_CELL.format(path=str(answers_file))))
        jail.hand_over(work)
        env = jail.env(work, _guard_rules(work, deny, jail), {"NB_QUICK": "1" if quick else "0"})
        pids: list[int] = []
        deadline = time.monotonic() + timeout
        client = _client_class()(
            nb, kernel_name="python3", allow_errors=True, resources={"metadata": {"path": str(work)}},
            kernel_manager_class=_kernel_manager(jail, work, env, pids), store_widget_state=False,
            timeout_func=lambda cell: max(0.05, deadline - time.monotonic()), interrupt_on_timeout=False,
            startup_timeout=max(1, math.ceil(timeout)), iopub_timeout=2,
        )
        before = jail_mod.snapshot_processes()
        log = open(jail.grader_dir / f"{work.name}-kernel.log", "wb")  # the kernel's stdout/stderr: not the terminal
        stopped = None
        try:
            # POSIX: the launcher sets the environment; Windows has no launcher, the kernel gets ``env`` directly
            stopped = _execute(client, pids, deadline, stdout=log, stderr=log, **({} if jail.posix else {"env": env}))
        except CellTimeoutError:
            sub.status, sub.detail = TIMEOUT, f"整本笔记本超过 {timeout:g} 秒 (notebook time limit)"
        except DeadKernelError as exc:
            sub.status, sub.detail = ERROR, f"内核退出 (kernel died): {str(exc)[:120]}"
        except Exception as exc:
            sub.status, sub.detail = ERROR, f"{type(exc).__name__}: {str(exc)[:160]}"
        finally:
            import atexit

            atexit.unregister(client._cleanup_kernel)  # nbclient's own exit hook fails after a dead start
            log.close()
            jail_mod.sweep(before, pids[0] if pids else None, jail.user)
        interrupted = stopped == "interrupt"
        if stopped == "timeout":
            sub.status, sub.detail = TIMEOUT, f"整本笔记本超过 {timeout:g} 秒 (notebook time limit)"
        if not sub.status:
            sub.status, sub.detail = _first_error(nb)
        if not interrupted:
            sub.answers, problem = sandbox.read_answers(answers_file)
            if problem:
                sub.status, sub.detail = ERROR, f"答案文件无法读取 (answers unreadable): {problem[:160]}"
    finally:
        import shutil

        shutil.rmtree(work, ignore_errors=True)
        if own:
            jail.close()
    if interrupted:
        raise KeyboardInterrupt
    if not isinstance(sub.answers, dict):
        sub.answers = {}
    sub.exercise_ids = {i for i in sub.answers if isinstance(i, str) and i in EXERCISES}
    return sub


def _first_error(nb) -> tuple[str, str]:
    for n, cell in enumerate(nb.cells[1:], start=1):  # cell 0 is the recorder
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                return ERROR, f"第 {n} 个代码单元格 (cell {n}): {out.get('ename')}: {str(out.get('evalue'))[:120]}"
    return OK, ""


def _status(sub: Submission) -> str:
    text = sub.status if sub.status == OK else f"{sub.name}: {sub.status} {sub.detail}".strip()
    return "; ".join([text, *sub.problems]) if sub.problems else text


def _outside(sub: Submission) -> str:
    """The status of a file that is not run: what it is, in words (no notebook, no check(...), another notebook)."""
    if sub.status:
        return _status(sub)
    if sub.nb is None:
        sub.status = NOT_NOTEBOOK
    elif sub.notebook is None:
        sub.status = NO_EXERCISES
    else:
        sub.status, sub.detail = NOT_IN_ASSIGNMENT, sub.notebook
    return _status(sub)


def _grade_student(own: list[Submission], columns: list[str], columns_nb: list[str], *, timeout, call_timeout,
                   quick, jail, deny) -> tuple[str, dict, list[str]]:
    """Run and mark one student's files: (status, marks, log lines). The same in a worker and in the grader."""
    problems, marks, lines = [], {}, []
    best: dict[str, tuple] = {}
    for sub in own:
        if sub.notebook not in columns_nb:
            problems.append(_outside(sub))
            continue
        start = time.monotonic()
        run_notebook(sub, timeout=timeout, quick=quick, jail=jail, deny=deny)
        before = jail_mod.snapshot_processes()
        with sandbox.marking_limit(timeout):  # the checks after the notebook: a budget of their own
            sub_marks = mark_submission(sub, columns, call_timeout=call_timeout, jail=jail, deny=deny)
        jail_mod.sweep(before, None, jail.user)  # what the sandbox children left (their bwrap halves)
        lines.append(f"{sub.name}: {sub.status} {sub.detail} ({time.monotonic() - start:.0f} s)")
        key = (sum(m.points for m in sub_marks.values()), sub.status == OK and not sub.problems, sub.name)
        previous = best.get(sub.notebook)
        if previous is None or key[:2] > previous[0][:2]:
            if previous is not None:
                problems.append(f"{previous[1].name}: {NOT_COUNTED}")
            best[sub.notebook] = (key, sub, sub_marks)
        else:
            problems.append(f"{sub.name}: {NOT_COUNTED}")
    for _key, sub, sub_marks in best.values():
        marks.update(sub_marks)
        if sub.status != OK or sub.problems:
            problems.insert(0, _status(sub))
    if not own:
        problems.append(NOTHING_HANDED_IN)
    return ("; ".join(problems) if problems else OK), marks, lines


# --- workers: one process each, with an isolation of its own -------------------------------------------

_WORKER: dict = {}


def _worker_start(index: int, memory: int, use_bwrap: bool, columns: list[str]) -> None:
    """In a worker process: its own Isolation (own folder; when graded code runs as another user, a user
    id of its own, so that one worker's sweep never kills another's kernel), the answer key computed."""
    import atexit
    import signal

    from helpers.exercises import EXERCISES

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the grader's to handle: it stops the workers
    for c in columns:
        getattr(EXERCISES[c], "solution", None)
    jail = jail_mod.Isolation(memory=memory, use_bwrap=use_bwrap)
    if jail.user:
        jail.user = (worker_uid(jail.user[0], index), jail.user[1])
    jail_mod.become_subreaper()  # orphans of this worker's kernels come back to this worker
    _WORKER["jail"] = jail
    atexit.register(jail.close)


def worker_uid(base: int, index: int) -> int:
    """The sandbox user id of worker ``index``: ``base`` for the first, then free ids below it."""
    import pwd

    uid, n = base, 0
    while n < index:
        uid -= 1
        try:
            pwd.getpwuid(uid)
        except KeyError:
            n += 1
    return uid


def _worker_grade(own, columns, columns_nb, options):
    jail = _WORKER["jail"]
    return _grade_student(own, columns, columns_nb, jail=jail, **options)


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


class Progress:
    """"k / N" lines with an estimate of the time left, from the students finished so far."""

    def __init__(self, total: int, workers: int, log):
        self.total, self.workers, self.log, self.done, self.start = total, workers, log, 0, time.monotonic()

    def finished(self, student: str, status: str, lines: list[str]) -> None:
        self.done += 1
        elapsed = time.monotonic() - self.start
        left = self.total - self.done
        # students per second so far; before every worker has finished one, all of them have been busy as long
        rate = max(self.done, min(self.workers, self.total)) / max(elapsed, 1e-9)
        eta = f"，预计还要 (about) {_duration(left / rate)}" if left else ""
        for line in lines:
            self.log(f"  {line}")
        self.log(f"[{self.done}/{self.total}] {student}: {status}（已用 (elapsed) {_duration(elapsed)}{eta}）")


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60} 分 {seconds % 60:02d} 秒" if seconds >= 60 else f"{seconds} 秒"


def grade(root: Path, *, timeout: float = 300, call_timeout: float = 10, quick: bool = True, log=print,
          out: Path | None = None, notebooks: list[str] | None = None, memory_mb: int = 4096, use_bwrap: bool = True,
          workers: int = 1, assignment_name: str = ""):
    """Run and mark every submission, writing each student's rows to ``out`` as soon as they are graded.

    ``workers`` processes grade students side by side (each with an isolation of its own); the rows are
    written in the students' order whatever the order they finish in, and are the same as with one.
    Returns (columns, rows) where rows map student -> {"status": str, "marks": {exercise: Mark}}."""
    from helpers.exercises import EXERCISES

    root = Path(root)
    subs = find_submissions(root)
    for sub in subs:
        if not sub.status and parse(sub):
            sub.notebook = identify(sub, EXERCISES)
    columns_nb = assignment(subs, EXERCISES, notebooks)
    columns = [i for i, ex in EXERCISES.items() if ex.notebook in columns_nb]
    columns.sort(key=lambda i: (columns_nb.index(EXERCISES[i].notebook), list(EXERCISES).index(i)))
    by_student: dict[str, list[Submission]] = {name: [] for name in student_folders(root)}
    for sub in subs:
        by_student.setdefault(sub.student, []).append(sub)
    by_student = dict(sorted(by_student.items()))
    workers = max(1, min(int(workers), len(by_student) or 1))
    log(f"批改 (grading) {len(by_student)} 个学生 (students)，作业 (assignment)：{', '.join(columns_nb) or '—'}；"
        f"{workers} 个并行进程 (workers)")
    for c in columns:  # the assignment's answer key, computed now: nothing a notebook does later changes it
        getattr(EXERCISES[c], "solution", None)
    deny = [root.resolve(), *(p.resolve() for p in all_report_paths(out))] if out else [root.resolve()]
    jail = jail_mod.Isolation(memory=memory_mb << 20, use_bwrap=use_bwrap)
    jail_mod.become_subreaper()
    log(jail.describe())
    reports = Reports(out, columns, assignment_name, isolation=jail.summary()) if out else None
    rows: dict[str, dict] = {}
    progress = Progress(len(by_student), workers, log)
    options = {"timeout": timeout, "call_timeout": call_timeout, "quick": quick, "deny": deny}
    order = list(by_student)

    def finish(student, status, marks, lines):
        progress.finished(student, status, lines)
        rows[student] = {"status": status, "marks": marks}
        while reports and len(reports.rows) < len(order) and order[len(reports.rows)] in rows:
            name = order[len(reports.rows)]  # written in the students' order: the same files as one worker
            reports.add(name, rows[name]["status"], rows[name]["marks"])

    try:
        if workers == 1:
            for student, own in by_student.items():
                finish(student, *_grade_student(own, columns, columns_nb, jail=jail, **options))
        else:
            _grade_parallel(by_student, columns, columns_nb, options, workers, memory_mb << 20, use_bwrap, finish)
    finally:
        if reports:
            reports.close()
        jail.close()
    return columns, {s: rows[s] for s in order if s in rows}


def _grade_parallel(by_student, columns, columns_nb, options, workers, memory, use_bwrap, finish) -> None:
    """Grade with ``workers`` processes: one single-process pool each (each knows its index, hence its user id)."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no torch threads forked mid-state
    before = jail_mod.snapshot_processes()
    pools = [ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_worker_start,
                                 initargs=(k, memory, use_bwrap, columns)) for k in range(workers)]
    try:
        queue, running = list(by_student.items()), {}
        while queue or running:
            busy = {k for k, _student in running.values()}
            for k, pool in enumerate(pools):
                if queue and k not in busy:
                    student, own = queue.pop(0)
                    running[pool.submit(_worker_grade, own, columns, columns_nb, options)] = (k, student)
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: running[f][0]):
                k, student = running.pop(future)
                try:
                    result = future.result()
                except Exception as exc:  # the worker died (e.g. killed for memory): this student's row says so
                    result = (f"{ERROR} 批改进程出错 (grading worker failed): {type(exc).__name__}: {str(exc)[:120]}", {}, [])
                    pools[k].shutdown(wait=True, cancel_futures=True)
                    pools[k] = ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_worker_start,
                                                   initargs=(k, memory, use_bwrap, columns))
                finish(student, *result)
    except BaseException:
        for pool in pools:  # Ctrl-C or a broken worker: stop them all now
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()
        raise
    finally:
        for pool in pools:
            pool.shutdown(wait=True, cancel_futures=True)
        jail_mod.sweep(before, None, None)  # kernels of a stopped worker are the grader's orphans now


def _positive(what: str, integer: bool = False):
    def parse_value(text: str):
        try:
            value = int(text) if integer else float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value <= 0:
            import argparse

            raise argparse.ArgumentTypeError(
                f"{what} 必须是一个大于 0 的有限数 (must be a finite number > 0)，收到 {text!r}")
        return value

    return parse_value


def check_out(out: Path, submissions: Path) -> None:
    """Refuse, before anything runs, an ``--out`` that cannot be written or would sit among the submissions."""
    for path in report_paths(out):
        if path.is_dir():
            raise GradingError(f"--out 指向一个已有的文件夹 (--out names an existing folder)：{path}。"
                               "请给一个文件名，例如 --out grades.csv。")
    lms_csv, gradescope = lms_paths(out)
    if lms_csv.is_dir() or gradescope.is_symlink() or (gradescope.exists() and not gradescope.is_dir()):
        raise GradingError(f"LMS 导出的位置已被占用 (the LMS export paths are taken)：{lms_csv} / {gradescope}。"
                           "请换一个 --out。")
    parent = out.resolve().parent
    if parent.exists() and not parent.is_dir():
        raise GradingError(f"--out 的上级不是文件夹 (parent of --out is not a folder)：{parent}")
    try:
        parent.relative_to(submissions.resolve())
    except ValueError:
        return
    raise GradingError(f"--out 不能放在提交文件夹里 (--out must not be inside the submissions folder)：{out}")


def main(argv=None) -> int:
    import argparse

    from helpers.exercises import EXERCISES

    parser = argparse.ArgumentParser(prog="python -m helpers.grading", description=__doc__.splitlines()[0])
    parser.add_argument("submissions", type=Path, help="folder with one sub-folder (or notebook) per student")
    parser.add_argument("--out", type=Path, default=Path("grades.csv"))
    parser.add_argument("--timeout", type=_positive("--timeout"), default=300, help="seconds per notebook (default 300)")
    parser.add_argument("--call-timeout", type=_positive("--call-timeout"), default=10,
                        help="seconds per call of a student's function")
    parser.add_argument("--memory-mb", type=_positive("--memory-mb", integer=True), default=4096,
                        help="address-space limit of each graded process, MB (default 4096)")
    parser.add_argument("--notebooks", nargs="+", metavar="NOTEBOOK",
                        help="course notebooks that form the assignment (default: those most students handed in)")
    parser.add_argument("--no-bwrap", action="store_true", help="do not use bubblewrap even when installed")
    parser.add_argument("--full", action="store_true", help="run the notebooks in full mode (default: NB_QUICK=1)")
    parser.add_argument("--workers", type=_positive("--workers", integer=True), default=default_workers(),
                        help=f"students graded side by side, one process each (default: every core, here {default_workers()})")
    parser.add_argument("--assignment-name", default="",
                        help="the assignment's column name in the LMS CSV (default: the assignment's notebooks)")
    args = parser.parse_args(argv)
    if not args.submissions.is_dir():
        print(f"找不到提交文件夹 (submissions folder not found)：{args.submissions}")
        return 2
    known = list(dict.fromkeys(ex.notebook for ex in EXERCISES.values()))
    unknown = [n for n in args.notebooks or () if n not in known]
    try:
        if unknown:
            raise GradingError(f"未知的笔记本 (unknown notebook)：{', '.join(unknown)}。可用 (valid)：{', '.join(known)}")
        check_out(args.out, args.submissions)
    except GradingError as exc:
        print(exc)
        return 2
    try:
        columns, rows = grade(args.submissions, timeout=args.timeout, call_timeout=args.call_timeout, quick=not args.full,
                              out=args.out, notebooks=args.notebooks, memory_mb=args.memory_mb, use_bwrap=not args.no_bwrap,
                              workers=args.workers, assignment_name=args.assignment_name)
    except KeyboardInterrupt:
        print(f"已中断 (interrupted)：已经批改完的学生都已写入 (finished rows are kept in) {args.out}")
        return 130
    _, details, summary = report_paths(args.out)
    lms_csv, gradescope = lms_paths(args.out)
    print(json.dumps({"students": len(rows), "csv": str(args.out), "details": str(details), "summary": str(summary),
                      "lms_csv": str(lms_csv), "gradescope": str(gradescope)}, ensure_ascii=False))
    return 0
