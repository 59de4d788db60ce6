"""The teachers' grading command: ``python -m helpers.exercises grade SUBMISSIONS/ --out grades.csv``.

Conventions follow nbgrader: one row per student, one column per exercise (points), a total and
the maximum. A student is a sub-folder of SUBMISSIONS/ (all notebooks inside count) or, for a flat
folder, the file name without ``.ipynb``.

How a verdict is reached, outside the student's kernel:

1. each notebook runs top to bottom in a fresh kernel (nbclient), with a time limit for the whole
   notebook; a first cell is prepended that makes ``check(...)`` record the answer instead of
   judging it (``grade_record.install_recorder``);
2. the recorded answers are read back as data (``torch.load(weights_only=True)``);
3. the grader calls the real ``check(exercise_id, answer)`` in its own process: values directly,
   functions through ``grade_sandbox.Sandbox`` (the student's source re-created in a child process,
   a time limit per call).

So patching ``torch.allclose`` or the checkers in the notebook, a Tensor subclass that lies, or
handing in ``EXERCISES[id].solution`` cannot pass. A notebook that errors, hangs or is not a
notebook gets a row saying so, and the batch goes on. Besides the CSV the command writes
``<out>_details.csv`` (one line per student and exercise, with the checker's message) and a
Markdown summary ``<out>.md`` (pass rate and most common wrong answer per exercise).
"""

from __future__ import annotations

import csv
import json
import os
import re
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from helpers.exercises import grade_sandbox as sandbox

PASSED, WRONG, UNFINISHED = "通过 (passed)", "未通过 (wrong)", "尚未完成 (not finished yet)"
MISSING, REFERENCE, UNGRADABLE = "未作答 (not attempted)", "交了参考答案 (reference solution)", "无法评分 (ungradable)"
OK, NOT_NOTEBOOK, TIMEOUT, ERROR = "完成 (ok)", "不是笔记本 (not a notebook)", "超时 (timeout)", "执行出错 (error)"

_HINT = re.compile(r"\n[^\n]*提示 \d+ \(hint \d+\)")
_CHECK_CALL = re.compile(r"""check\(\s*["']([A-Za-z0-9_]+)["']""")
RECORDER_CELL = (
    "# 评分用 (grading): check(...) records the answer; the grader decides outside this kernel\n"
    "from helpers.exercises.grade_record import install_recorder as _install_recorder\n"
    "_install_recorder({path!r})\n"
    "del _install_recorder\n"
)


@dataclass
class Mark:
    """The verdict on one exercise of one student."""

    verdict: str
    message: str = ""
    answer: str = ""  # short text of the answer, for the summary's "most common wrong answer"

    @property
    def points(self) -> int:
        return int(self.verdict == PASSED)


@dataclass
class Submission:
    """One notebook file: how its run went, which exercises it holds and the recorded answers."""

    path: Path
    student: str
    status: str = OK
    detail: str = ""
    exercise_ids: set[str] = field(default_factory=set)
    answers: dict = field(default_factory=dict)


def find_submissions(root: Path) -> list[Submission]:
    """Every file under ``root`` with its student's name (hidden files and checkpoints skipped).

    In a student's folder that holds notebooks, other files (data, pictures) are ignored; a file
    that is all a student handed in is graded, and gets a "not a notebook" row if it is none.
    """
    found = []
    files = sorted(p for p in root.rglob("*") if p.is_file()
                   and not any(part.startswith(".") for part in p.relative_to(root).parts))
    has_notebook = {p.relative_to(root).parts[0] for p in files if p.suffix == ".ipynb"}
    for path in files:
        rel = path.relative_to(root)
        nested = len(rel.parts) > 1
        if nested and path.suffix != ".ipynb" and rel.parts[0] in has_notebook:
            continue
        found.append(Submission(path, rel.parts[0] if nested else rel.stem))
    return found


def run_notebook(sub: Submission, *, timeout: float, quick: bool) -> Submission:
    """Execute one submission in a fresh kernel, prepended with the recorder; fill in status and answers."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    from helpers.exercises import EXERCISES

    try:
        nb = nbformat.read(str(sub.path), as_version=4)
        cells = [c for c in nb.cells if c.get("cell_type") == "code"]
    except Exception as exc:
        sub.status, sub.detail = NOT_NOTEBOOK, f"{type(exc).__name__}: {str(exc)[:120]}"
        return sub
    sub.exercise_ids = {m for c in cells for m in _CHECK_CALL.findall(c.source) if m in EXERCISES}
    with tempfile.TemporaryDirectory(prefix="grade-") as tmp:
        answers_file = Path(tmp) / "answers.pt"
        nb.cells.insert(0, nbformat.v4.new_code_cell(RECORDER_CELL.format(path=str(answers_file))))
        deadline = time.monotonic() + timeout
        env = {"NB_QUICK": "1" if quick else "0", "PYTHONPATH": os.pathsep.join(
            [str(sandbox.ROOT), os.environ.get("PYTHONPATH", "")]), "MPLBACKEND": "Agg"}
        old = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        client = NotebookClient(
            nb, kernel_name="python3", allow_errors=True, resources={"metadata": {"path": tmp}},
            timeout_func=lambda cell: max(1, int(deadline - time.monotonic())), interrupt_on_timeout=False,
        )
        try:
            client.execute()
        except CellTimeoutError:
            sub.status, sub.detail = TIMEOUT, f"整本笔记本超过 {timeout:g} 秒 (notebook time limit)"
        except DeadKernelError as exc:
            sub.status, sub.detail = ERROR, f"内核退出 (kernel died): {str(exc)[:120]}"
        except Exception as exc:
            sub.status, sub.detail = ERROR, f"{type(exc).__name__}: {str(exc)[:160]}"
        finally:
            for key, value in old.items():
                os.environ.pop(key, None) if value is None else os.environ.__setitem__(key, value)
        if sub.status == OK:
            sub.status, sub.detail = _first_error(nb)
        if answers_file.exists():
            try:
                sub.answers = sandbox.loads(answers_file.read_bytes())
            except Exception as exc:
                sub.status, sub.detail = ERROR, f"答案文件无法读取 (answers unreadable): {type(exc).__name__}"
    if not isinstance(sub.answers, dict):
        sub.answers = {}
    sub.exercise_ids |= {i for i in sub.answers if isinstance(i, str) and i in EXERCISES}
    return sub


def _first_error(nb) -> tuple[str, str]:
    for n, cell in enumerate(nb.cells[1:], start=1):  # cell 0 is the recorder
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                return ERROR, f"第 {n} 个代码单元格 (cell {n}): {out.get('ename')}: {str(out.get('evalue'))[:120]}"
    return OK, ""


def _short(value, limit: int = 60) -> str:
    if isinstance(value, float):
        text = f"{value:.4g}"
    elif hasattr(value, "shape") and hasattr(value, "tolist"):
        text = f"{type(value).__name__}{list(value.shape)}"
    else:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def mark(exercise_id: str, entry: dict | None, *, call_timeout: float) -> Mark:
    """Check one recorded answer with the real checker, in this process (functions in a sandbox)."""
    from helpers.exercises import check, reset_hints  # reset: each student starts from hint 1

    if entry is None:
        return Mark(MISSING, "没有运行这个练习的 check(...) (no check call recorded)")
    if not isinstance(entry, dict):  # the kernel wrote something else into the answers file
        return Mark(UNGRADABLE, f"记录被改动过 (tampered record): {type(entry).__name__}")
    kind = entry.get("kind")
    if kind == "reference":
        return Mark(REFERENCE, "提交的是 helpers 里的现成函数或参考答案，不是自己的解答 (not your own work)", "参考答案")
    if kind == "unsupported":
        return Mark(UNGRADABLE, f"答案无法取出 (answer cannot be taken out): {entry.get('reason', '')}")
    reset_hints(exercise_id)
    if kind == "value":
        answer = sandbox.decode(entry.get("value"))
        result = check(exercise_id, answer)
        shown = _short(answer)
    elif kind == "function":
        try:
            with sandbox.Sandbox(entry, call_timeout=call_timeout) as box:
                if box.dead:  # the recorded source does not define the function outside the notebook
                    name, text = box.dead
                    return Mark(WRONG, f"你的函数在评分环境里无法重建 (cannot re-create your function): {name}: {text}",
                                name)
                result = check(exercise_id, box.function)
        except sandbox.GradingTimeout as exc:
            return Mark(WRONG, str(exc), "超时 (timeout)")
        shown = ""
    else:
        return Mark(UNGRADABLE, f"未知的记录 (unknown record) {kind!r}")
    message = _HINT.split(str(result.message))[0]  # the diagnosis without the progressive hints
    details = getattr(result, "details", {}) or {}
    if result.passed:
        return Mark(PASSED, message, shown)
    if details.get("kind") == "unfinished" or message.startswith("尚未完成"):
        return Mark(UNFINISHED, message, "None")
    return Mark(WRONG, message, shown or message.splitlines()[0].split("：")[0][:60])  # the diagnosis


def grade(root: Path, *, timeout: float = 300, call_timeout: float = 10, quick: bool = True, log=print):
    """Run and mark every submission; return (columns, rows) where rows map student -> row data."""
    from helpers.exercises import EXERCISES

    subs = []
    for sub in find_submissions(root):
        start = time.monotonic()
        run_notebook(sub, timeout=timeout, quick=quick)
        log(f"{sub.path.relative_to(root)}: {sub.status} {sub.detail} ({time.monotonic() - start:.0f} s)")
        subs.append(sub)
    notebooks = {EXERCISES[i].notebook for s in subs for i in s.exercise_ids}
    columns = [i for i, ex in EXERCISES.items() if ex.notebook in notebooks]
    columns.sort(key=lambda i: (EXERCISES[i].notebook, list(EXERCISES).index(i)))
    rows: dict[str, dict] = {}
    for sub in subs:
        row = rows.setdefault(sub.student, {"files": [], "status": [], "marks": {}})
        row["files"].append(sub.path.name)
        row["status"].append(sub.status if sub.status == OK else f"{sub.path.name}: {sub.status} {sub.detail}")
        handed_in = {EXERCISES[i].notebook for i in sub.exercise_ids}
        for exercise_id in (c for c in columns if EXERCISES[c].notebook in handed_in):
            answers = sub.answers if isinstance(sub.answers, dict) else {}
            try:
                row["marks"][exercise_id] = mark(exercise_id, answers.get(exercise_id), call_timeout=call_timeout)
            except Exception as exc:  # one odd record must not stop the batch
                row["marks"][exercise_id] = Mark(UNGRADABLE, f"{type(exc).__name__}: {str(exc)[:120]}")
    return columns, rows


def write_reports(columns: list[str], rows: dict, out: Path) -> tuple[Path, Path]:
    """``out`` (points), ``<out>_details.csv`` (verdicts and messages) and ``<out>.md`` (summary)."""
    details_path, summary_path = out.with_name(out.stem + "_details.csv"), out.with_suffix(".md")
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["student", "status", *columns, "total", "max_score"])
        for student, row in rows.items():
            status = OK if all(s == OK for s in row["status"]) else "; ".join(s for s in row["status"] if s != OK)
            points = [row["marks"].get(c, Mark(MISSING)).points for c in columns]
            w.writerow([student, status, *points, sum(points), len(columns)])
    with open(details_path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["student", "exercise", "points", "verdict", "answer", "message"])
        for student, row in rows.items():
            for c in (c for c in columns if c in row["marks"]):  # exercises of the notebooks handed in
                m = row["marks"][c]
                w.writerow([student, c, m.points, m.verdict, m.answer, m.message])
    summary_path.write_text(summary_markdown(columns, rows), encoding="utf-8")
    return details_path, summary_path


def summary_markdown(columns: list[str], rows: dict) -> str:
    """Per-exercise pass rate and the most common wrong answer: what to re-teach."""
    from helpers.exercises import EXERCISES

    n = len(rows)
    broken = sum(any(s != OK for s in row["status"]) for row in rows.values())
    lines = [f"# 评分汇总 (grading summary)\n\n学生 (students)：{n}；运行出问题的 (with a run problem)：{broken}\n",
             "| 练习 (exercise) | 标题 | 通过率 (pass rate) | 尚未完成 | 最常见的错误答案 (most common wrong answer) |",
             "|---|---|---|---|---|"]
    for c in columns:
        marks = [row["marks"].get(c, Mark(MISSING)) for row in rows.values()]
        passed = sum(m.verdict == PASSED for m in marks)
        unfinished = sum(m.verdict in (UNFINISHED, MISSING) for m in marks)
        wrong = Counter(m.answer for m in marks if m.verdict in (WRONG, REFERENCE, UNGRADABLE))
        common = f"{wrong.most_common(1)[0][0]}（{wrong.most_common(1)[0][1]} 人）" if wrong else "—"
        common = common.replace("|", "\\|").replace("\n", " ")
        lines.append(f"| `{c}` | {EXERCISES[c].title} | {passed}/{n} ({passed / max(n, 1):.0%}) | {unfinished} | {common} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m helpers.exercises grade", description=__doc__.splitlines()[0])
    parser.add_argument("submissions", type=Path, help="folder with one sub-folder (or notebook) per student")
    parser.add_argument("--out", type=Path, default=Path("grades.csv"))
    parser.add_argument("--timeout", type=float, default=300, help="seconds per notebook (default 300)")
    parser.add_argument("--call-timeout", type=float, default=10, help="seconds per call of a student's function")
    parser.add_argument("--full", action="store_true", help="run the notebooks in full mode (default: NB_QUICK=1)")
    args = parser.parse_args(argv)
    if not args.submissions.is_dir():
        print(f"找不到提交文件夹 (submissions folder not found)：{args.submissions}")
        return 2
    columns, rows = grade(args.submissions, timeout=args.timeout, call_timeout=args.call_timeout, quick=not args.full)
    details, summary = write_reports(columns, rows, args.out)
    print(json.dumps({"students": len(rows), "csv": str(args.out), "details": str(details), "summary": str(summary)},
                     ensure_ascii=False))
    return 0
