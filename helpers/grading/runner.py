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
from helpers.grading.report import Reports, report_paths
from helpers.grading.submissions import MAX_NOTEBOOK, Submission, assignment, identify, parse
from helpers.grading.submissions import find_submissions as _find
from helpers.runtime.errors import HelpersError

OK, NOT_NOTEBOOK, ERROR = "完成 (ok)", "不是笔记本 (not a notebook)", "执行出错 (error)"
TIMEOUT = TIMED_OUT  # "超时 (timeout)": the run's status, and the verdict of each exercise it never reached
SYMLINK, TOO_BIG = "符号链接，未跟随 (symlink, not followed)", f"文件超过 {MAX_NOTEBOOK >> 20} MB (file too large)"
NO_EXERCISES = "没有找到本课程的练习 (no exercises of this course)"
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
    return _find(root, symlink_status=SYMLINK, big_status=TOO_BIG)


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


def grade(root: Path, *, timeout: float = 300, call_timeout: float = 10, quick: bool = True, log=print,
          out: Path | None = None, notebooks: list[str] | None = None, memory_mb: int = 4096, use_bwrap: bool = True):
    """Run and mark every submission, writing each student's rows to ``out`` as soon as they are graded.

    Returns (columns, rows) where rows map student -> {"status": str, "marks": {exercise: Mark}}."""
    from helpers.exercises import EXERCISES

    root = Path(root)
    for ex in EXERCISES.values():  # the answer key, computed now: nothing a notebook does later changes it
        getattr(ex, "solution", None)
    subs = find_submissions(root)
    for sub in subs:
        if not sub.status and parse(sub):
            sub.notebook = identify(sub, EXERCISES)
    columns_nb = assignment(subs, EXERCISES, notebooks)
    columns = [i for i, ex in EXERCISES.items() if ex.notebook in columns_nb]
    columns.sort(key=lambda i: (columns_nb.index(EXERCISES[i].notebook), list(EXERCISES).index(i)))
    deny = [root.resolve(), *(p.resolve() for p in report_paths(out))] if out else [root.resolve()]
    jail = jail_mod.Isolation(memory=memory_mb << 20, use_bwrap=use_bwrap)
    jail_mod.become_subreaper()
    log(f"{jail.describe()}；作业 (assignment)：{', '.join(columns_nb) or '—'}")
    reports = Reports(out, columns) if out else None
    rows: dict[str, dict] = {}
    by_student: dict[str, list[Submission]] = {}
    for sub in subs:
        by_student.setdefault(sub.student, []).append(sub)
    try:
        for student, own in by_student.items():
            problems, marks = [], {}
            best: dict[str, tuple] = {}
            for sub in own:
                if sub.notebook not in columns_nb:
                    if not sub.status:
                        sub.status = NOT_NOTEBOOK if sub.nb is None else NO_EXERCISES
                    problems.append(_status(sub))
                    continue
                start = time.monotonic()
                run_notebook(sub, timeout=timeout, quick=quick, jail=jail, deny=deny)
                before = jail_mod.snapshot_processes()
                with sandbox.marking_limit(timeout):  # the checks after the notebook: a budget of their own
                    sub_marks = mark_submission(sub, columns, call_timeout=call_timeout, jail=jail, deny=deny)
                jail_mod.sweep(before, None, jail.user)  # what the sandbox children left (their bwrap halves)
                log(f"{sub.name}: {sub.status} {sub.detail} ({time.monotonic() - start:.0f} s)")
                key = (sum(m.points for m in sub_marks.values()), sub.status == OK and not sub.problems, sub.name)
                previous = best.get(sub.notebook)
                if previous is None or key[:2] > previous[0][:2]:
                    if previous is not None:
                        problems.append(f"{previous[1].name}: 另有得分更高的文件，未计入 (another file scored higher, not counted)")
                    best[sub.notebook] = (key, sub, sub_marks)
                else:
                    problems.append(f"{sub.name}: 另有得分更高的文件，未计入 (another file scored higher, not counted)")
            for _key, sub, sub_marks in best.values():
                marks.update(sub_marks)
                if sub.status != OK or sub.problems:
                    problems.insert(0, _status(sub))
            if not best and not problems:
                problems.append(NO_EXERCISES)
            status = "; ".join(problems) if problems else OK
            rows[student] = {"status": status, "marks": marks}
            if reports:
                reports.add(student, status, marks)
    finally:
        if reports:
            reports.close()
        jail.close()
    return columns, rows


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
                              out=args.out, notebooks=args.notebooks, memory_mb=args.memory_mb, use_bwrap=not args.no_bwrap)
    except KeyboardInterrupt:
        print(f"已中断 (interrupted)：已经批改完的学生都已写入 (finished rows are kept in) {args.out}")
        return 130
    _, details, summary = report_paths(args.out)
    print(json.dumps({"students": len(rows), "csv": str(args.out), "details": str(details), "summary": str(summary)},
                     ensure_ascii=False))
    return 0
