"""The reports of ``grade``, written row by row: what is finished is on disk.

- ``grades.csv``: one row per student (points per exercise, ``total``, ``max_score``: the registry's
  points of the assignment's exercises, the same for everyone, ``helpers.exercises.default_points``); written with a
  UTF-8 BOM (``utf-8-sig``) so that Excel on Windows shows Chinese names, which Python's ``csv`` reads
  back unchanged with ``encoding="utf-8-sig"``;
- ``grades_details.csv``: one line per student and exercise, with the verdict and the checker's message;
- ``grades.md``: pass rate and the most common wrong answer per exercise (written at the end, and on
  Ctrl-C for the students finished so far);
- for an LMS (``grading.lms``): ``grades_lms.csv`` (Canvas / Moodle import) and
  ``grades_gradescope/<student>/results.json`` (Gradescope's autograder format).

Student text (names, answers, messages that quote an answer) is escaped for every format: Markdown
and HTML in ``grades.md`` (``md_text``), formulas in every CSV (``safe``), plain text in Gradescope.

Each student's rows are flushed and ``fsync``-ed as soon as that student is graded, so a crash, Ctrl-C or
an OOM kill keeps every finished row. A cell that starts with ``= + - @`` (or a tab / carriage return)
is prefixed with ``'`` so that a spreadsheet shows it as text, never runs it as a formula (also after
leading spaces, and for the full-width ``＝ ＋ － ＠`` some spreadsheets read as the ASCII ones).
"""

from __future__ import annotations

import csv
import html
import os
import re
from collections import Counter
from pathlib import Path

_FORMULA = ("=", "+", "-", "@", "\t", "\r", "\n", "＝", "＋", "－", "＠")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~!#$])")  # $: notebook viewers render maths


def safe(value):
    """A CSV cell that a spreadsheet cannot run as a formula."""
    if isinstance(value, str) and value.lstrip(" ").startswith(_FORMULA):
        return "'" + value
    return value


def md_text(value, limit: int = 200) -> str:
    """Student text as inert Markdown: HTML escaped, Markdown punctuation backslashed, one line."""
    text = " ".join(str(value).split())[:limit]
    return _MD_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


def report_paths(out: Path) -> tuple[Path, Path, Path]:
    return out, out.with_name(out.stem + "_details.csv"), out.with_suffix(".md")


def all_report_paths(out: Path) -> tuple[Path, ...]:
    """Every file and folder ``grade`` writes for ``--out`` (the LMS exports too)."""
    from helpers.grading.lms import lms_paths

    return (*report_paths(out), *lms_paths(out))


class Reports:
    """Open ``out`` and its details file, write the header; ``add`` writes one student for good."""

    def __init__(self, out: Path, columns: list[str], assignment_name: str = "", isolation: str = ""):
        from helpers.grading.lms import LmsExport
        from helpers.grading.marks import max_score

        self.out, self.details_path, self.summary_path = report_paths(out)
        self.columns, self.rows, self.isolation = columns, {}, isolation
        self.max_score = max_score(columns)
        out.parent.mkdir(parents=True, exist_ok=True)
        self._files = [open(p, "w", newline="", encoding="utf-8-sig") for p in (self.out, self.details_path)]
        self._grades, self._details = (csv.writer(f) for f in self._files)
        self._grades.writerow(["student", "status", *columns, "total", "max_score"])
        self._details.writerow(["student", "exercise", "points", "max_points", "verdict", "answer", "message"])
        self.lms = LmsExport(out, columns, self.max_score, assignment_name)
        self._sync()

    def _sync(self) -> None:
        for f in self._files:
            f.flush()
            os.fsync(f.fileno())

    def add(self, student: str, status: str, marks: dict) -> None:
        from helpers.grading.marks import MISSING, Mark, format_points

        self.rows[student] = {"status": status, "marks": marks}
        points = [marks.get(c, Mark(MISSING)).points for c in self.columns]
        self._grades.writerow([safe(student), safe(status), *map(format_points, points), format_points(sum(points)),
                               format_points(self.max_score)])
        for c in (c for c in self.columns if c in marks):
            m = marks[c]
            self._details.writerow([safe(student), c, format_points(m.points), format_points(m.out_of), m.verdict,
                                    safe(m.answer), safe(m.message)])
        self._sync()
        self.lms.add(student, status, marks)

    def close(self) -> None:
        for f in self._files:
            if not f.closed:
                f.close()
        self.lms.close()
        self.summary_path.write_text(summary_markdown(self.columns, self.rows, self.isolation),
                                     encoding="utf-8")


def summary_markdown(columns: list[str], rows: dict, isolation: str = "") -> str:
    """Per-exercise pass rate and the most common wrong answer: what to re-teach.

    ``isolation`` (``jail.Isolation.summary()``) says what the graded code could reach, so a report read
    later never suggests an isolation the run did not have."""
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
             *([f"批改时的隔离 (isolation of the graded code)：{md_text(isolation, limit=1000)}\n"] if isolation else []),
             "| 练习 (exercise) | 标题 | 通过率 (pass rate) | 尚未完成 | 超时未运行到 (timeout) | 最常见的错误答案 (most common wrong answer) |",
             "|---|---|---|---|---|---|"]
    for c in columns:
        marks = [row["marks"].get(c, Mark(MISSING)) for row in rows.values()]
        passed = sum(m.verdict == PASSED for m in marks)
        unfinished = sum(m.verdict in (UNFINISHED, MISSING) for m in marks)
        timed_out = sum(m.verdict == TIMED_OUT for m in marks)
        wrong = Counter(m.answer for m in marks if m.verdict in (WRONG, REFERENCE, UNGRADABLE))
        common = f"{md_text(wrong.most_common(1)[0][0])}（{wrong.most_common(1)[0][1]} 人）" if wrong else "—"
        lines.append(f"| `{c}` | {md_text(EXERCISES[c].title)} | {passed}/{n} ({passed / max(n, 1):.0%}) | {unfinished} "
                     f"| {timed_out} | {common} |")
    return "\n".join(lines) + "\n"
