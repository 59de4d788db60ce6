"""The reports of ``grade``, written row by row: what is finished is on disk.

- ``grades.csv``: one row per student (points per exercise, ``total``, ``max_score``); written with a
  UTF-8 BOM (``utf-8-sig``) so that Excel on Windows shows Chinese names, which Python's ``csv`` reads
  back unchanged with ``encoding="utf-8-sig"``;
- ``grades_details.csv``: one line per student and exercise, with the verdict and the checker's message;
- ``grades.md``: pass rate and the most common wrong answer per exercise (written at the end, and on
  Ctrl-C for the students finished so far).

Each student's rows are flushed and ``fsync``-ed as soon as that student is graded, so a crash, Ctrl-C or
an OOM kill keeps every finished row. A cell that starts with ``= + - @`` (or a tab / carriage return)
is prefixed with ``'`` so that a spreadsheet shows it as text, never runs it as a formula.
"""

from __future__ import annotations

import csv
import os
from collections import Counter
from pathlib import Path

_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def safe(value):
    """A CSV cell that a spreadsheet cannot run as a formula."""
    if isinstance(value, str) and value.startswith(_FORMULA):
        return "'" + value
    return value


def report_paths(out: Path) -> tuple[Path, Path, Path]:
    return out, out.with_name(out.stem + "_details.csv"), out.with_suffix(".md")


class Reports:
    """Open ``out`` and its details file, write the header; ``add`` writes one student for good."""

    def __init__(self, out: Path, columns: list[str]):
        self.out, self.details_path, self.summary_path = report_paths(out)
        self.columns, self.rows = columns, {}
        out.parent.mkdir(parents=True, exist_ok=True)
        self._files = [open(p, "w", newline="", encoding="utf-8-sig") for p in (self.out, self.details_path)]
        self._grades, self._details = (csv.writer(f) for f in self._files)
        self._grades.writerow(["student", "status", *columns, "total", "max_score"])
        self._details.writerow(["student", "exercise", "points", "verdict", "answer", "message"])
        self._sync()

    def _sync(self) -> None:
        for f in self._files:
            f.flush()
            os.fsync(f.fileno())

    def add(self, student: str, status: str, marks: dict) -> None:
        from helpers.grading.marks import MISSING, Mark

        self.rows[student] = {"status": status, "marks": marks}
        points = [marks.get(c, Mark(MISSING)).points for c in self.columns]
        self._grades.writerow([safe(student), safe(status), *points, sum(points), len(self.columns)])
        for c in (c for c in self.columns if c in marks):
            m = marks[c]
            self._details.writerow([safe(student), c, m.points, m.verdict, safe(m.answer), safe(m.message)])
        self._sync()

    def close(self) -> None:
        for f in self._files:
            if not f.closed:
                f.close()
        self.summary_path.write_text(summary_markdown(self.columns, self.rows), encoding="utf-8")


def summary_markdown(columns: list[str], rows: dict) -> str:
    """Per-exercise pass rate and the most common wrong answer: what to re-teach."""
    from helpers.exercises import EXERCISES
    from helpers.grading.marks import (
        MISSING,
        PASSED,
        REFERENCE,
        TIMED_OUT,
        UNFINISHED,
        UNGRADABLE,
        WRONG,
        Mark,
    )
    from helpers.grading.runner import OK

    n = len(rows)
    broken = sum(row["status"] != OK for row in rows.values())
    lines = [f"# 评分汇总 (grading summary)\n\n学生 (students)：{n}；运行出问题的 (with a run problem)：{broken}\n",
             "| 练习 (exercise) | 标题 | 通过率 (pass rate) | 尚未完成 | 超时未运行到 (timeout) | 最常见的错误答案 (most common wrong answer) |",
             "|---|---|---|---|---|---|"]
    for c in columns:
        marks = [row["marks"].get(c, Mark(MISSING)) for row in rows.values()]
        passed = sum(m.verdict == PASSED for m in marks)
        unfinished = sum(m.verdict in (UNFINISHED, MISSING) for m in marks)
        timed_out = sum(m.verdict == TIMED_OUT for m in marks)
        wrong = Counter(m.answer for m in marks if m.verdict in (WRONG, REFERENCE, UNGRADABLE))
        common = f"{wrong.most_common(1)[0][0]}（{wrong.most_common(1)[0][1]} 人）" if wrong else "—"
        common = common.replace("|", "\\|").replace("\n", " ")
        lines.append(f"| `{c}` | {EXERCISES[c].title} | {passed}/{n} ({passed / max(n, 1):.0%}) | {unfinished} | {timed_out} | {common} |")
    return "\n".join(lines) + "\n"
