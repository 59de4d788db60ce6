"""What a learning management system (LMS) takes, written next to ``grades.csv`` row by row.

- ``grades_lms.csv``: one row per student for the gradebook import of **Canvas** and **Moodle**
  (UTF-8 with BOM). Columns:

  ========================  =================================================================
  ``Student``               the student's folder name (or file name)
  ``ID``                    empty: Canvas's internal id, which the grader cannot know
  ``SIS User ID``           the folder name again: name each student's folder by the SIS user id
                            (Canvas) / ID number or username (Moodle), and the import matches it
  ``SIS Login ID``          the folder name again (Canvas matches on any one of these columns)
  ``Section``               empty (Canvas ignores it on import)
  ``<assignment> (N)``      the student's total points; ``N`` is the maximum (``--assignment-name``
                            gives the name; default: the assignment's notebooks)
  ========================  =================================================================

  Canvas: Grades > Import, the file as is; a column whose name matches no assignment becomes a new
  one. Moodle: Grades > Import > CSV file, map ``SIS User ID`` to "ID number" (or ``SIS Login ID`` to
  "username") and the assignment column to the grade item. Spreadsheet formulas are neutralised
  (``report.safe``).
- ``grades_gradescope/<student>/results.json``: Gradescope's autograder format, one file per student:
  ``{"score", "max_score", "output", "output_format": "text", "tests": [{"name", "score", "max_score",
  "output", "status": "passed"|"failed"}]}``, one test per exercise (points from the registry, partial
  credit included). Everything is shown as plain text (``output_format``), never as HTML or Markdown.
"""

from __future__ import annotations

import csv
import json
import os
import re
from pathlib import Path

_UNSAFE_NAME = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]')


def lms_paths(out: Path) -> tuple[Path, Path]:
    """The LMS CSV and the folder of Gradescope results for ``--out``."""
    return out.with_name(out.stem + "_lms.csv"), out.with_name(out.stem + "_gradescope")


def folder_name(student: str, taken: set) -> str:
    """A folder name for ``student`` that is one plain path component, unique among ``taken``."""
    name = _UNSAFE_NAME.sub("_", student).strip() or "_"
    if name.startswith("."):
        name = "_" + name
    name, n = name[:120], 2
    candidate = name
    while candidate.lower() in taken:
        candidate, n = f"{name}_{n}", n + 1
    taken.add(candidate.lower())
    return candidate


def gradescope_results(status: str, marks: dict, columns: list[str], max_score: float) -> dict:
    """One student's ``results.json`` (Gradescope autograder format)."""
    from helpers.exercises import EXERCISES, default_points
    from helpers.grading.marks import MISSING, PASSED, Mark

    tests = []
    for c in columns:
        m = marks.get(c) or Mark(MISSING, out_of=default_points(EXERCISES[c]))
        tests.append({"name": f"{c}: {EXERCISES[c].title}", "score": m.points, "max_score": m.out_of,
                      "output": _output(m),
                      "status": "passed" if m.verdict == PASSED else "failed"})
    return {"score": round(sum(t["score"] for t in tests), 2), "max_score": max_score,
            "output": f"运行情况 (run status)：{status}", "output_format": "text", "test_output_format": "text",
            "tests": tests}


def _output(m) -> str:
    if not m.message or m.message.startswith(m.verdict):
        return m.message or m.verdict
    return f"{m.verdict}：{m.message}"


class LmsExport:
    """Writes ``grades_lms.csv`` and the Gradescope results, one student at a time (see the module docstring)."""

    HEADER = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]

    def __init__(self, out: Path, columns: list[str], max_score: float, assignment_name: str = ""):
        from helpers.exercises import EXERCISES
        from helpers.grading.marks import format_points
        from helpers.grading.report import safe

        self.columns, self.max_score, self._taken = columns, max_score, set()
        self.csv_path, self.folder = lms_paths(out)
        notebooks = list(dict.fromkeys(EXERCISES[c].notebook for c in columns))
        name = assignment_name or (" + ".join(notebooks) if notebooks else "assignment")
        self.column = f"{name} ({format_points(max_score)})"
        self.folder.mkdir(parents=True, exist_ok=True)
        self._file = open(self.csv_path, "w", newline="", encoding="utf-8-sig")
        self._csv = csv.writer(self._file)
        self._csv.writerow([*self.HEADER, safe(self.column)])
        self._flush()

    def _flush(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())

    def add(self, student: str, status: str, marks: dict) -> None:
        from helpers.grading.marks import format_points
        from helpers.grading.report import safe

        results = gradescope_results(status, marks, self.columns, self.max_score)
        self._csv.writerow([safe(student), "", safe(student), safe(student), "", format_points(results["score"])])
        self._flush()
        target = self.folder / folder_name(student, self._taken)
        target.mkdir(exist_ok=True)
        (target / "results.json").write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()
