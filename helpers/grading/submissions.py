"""What was handed in: files, students, notebooks, and which file counts (the rules of ``grade``).

- **Files.** Every regular file under SUBMISSIONS/, except Jupyter's autosave copies
  (``.ipynb_checkpoints/``), zip leftovers of macOS (``__MACOSX/``, ``._*``) and, inside a student's
  folder, hidden files and folders. Symbolic links are never followed: a link gets a row saying so. Each file is read into memory once, before any
  notebook runs (at most ``MAX_NOTEBOOK`` bytes), so no notebook can change a classmate's file.
- **Students.** A sub-folder is a student (every notebook inside counts; other files there are
  ignored), hidden or not (``.alice/``): every student folder gets a row, an empty one too
  (``student_folders``); a file directly in SUBMISSIONS/ is a student named after the file. Names in GBK bytes (a
  zip made on Chinese Windows) are shown decoded, never crash the report.
- **Which notebook a file is.** Decided from the registry ``EXERCISES``: the course notebook whose
  exercise ids the file's code passes to ``check(...)`` most often (code only: comments, strings and
  cells under a magic that does not run Python, ``%%script``, ``%%bash`` …, do not count). A file with
  no such call is not run.
- **The assignment** (the columns): the notebooks named by ``--notebooks``, else every course
  notebook that more than half of the students handed in. One student cannot change it for the others.
- **One file per notebook per student.** When a student hands in several files for the same course
  notebook (``hw.ipynb`` and ``hw_old.ipynb``), all are graded and the best one counts (most points;
  then fewer run problems; then the file name); the others are named in the status column.
"""

from __future__ import annotations

import ast
import json
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

MAX_NOTEBOOK = 20 << 20  # bytes: a course notebook with outputs is far smaller
NOT_STUDENTS = (".ipynb_checkpoints", "__MACOSX")  # folders made by Jupyter and by macOS zips, never a student


@dataclass
class Submission:
    """One handed-in file: its bytes, the notebook it is, how its run went and the recorded answers."""

    path: Path
    student: str
    name: str = ""  # the file name as shown in reports
    data: bytes | None = None
    status: str = ""
    detail: str = ""
    notebook: str | None = None  # the course notebook it is (EXERCISES[...].notebook)
    cells: list = field(default_factory=list)  # cleaned code cell sources
    nb: object = None  # the cleaned nbformat notebook that runs
    exercise_ids: set[str] = field(default_factory=set)
    answers: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)  # notes about odd cells, kept for the status column


def display_name(name: str) -> str:
    """A file name from the disk as readable text: UTF-8, else GBK (Chinese Windows zips), else replaced."""
    raw = os.fsencode(name) if isinstance(name, str) else bytes(name)
    for encoding in ("utf-8", "gbk"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return raw.decode("utf-8", errors="replace")


def _read(path: Path) -> bytes:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    with os.fdopen(os.open(path, flags), "rb") as f:  # O_NOFOLLOW: a link swapped in now is not read
        return f.read(MAX_NOTEBOOK + 1)


def find_submissions(root: Path, *, symlink_status: str = "", big_status: str = "",
                     unreadable_status: str = "") -> list[Submission]:
    """Every file under ``root`` with its student's name; links and huge files get a row, not a read."""
    root = Path(root)
    found: list[Submission] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        top = here == root
        dirnames[:] = sorted(d for d in dirnames if d not in NOT_STUDENTS and (top or not d.startswith(".")))
        for d in list(dirnames):
            if (here / d).is_symlink():  # os.walk lists a linked folder but must not enter it
                dirnames.remove(d)
                filenames.append(d)
        for name in sorted(filenames):
            if name.startswith("."):  # .DS_Store, ._x (macOS), a student's hidden files
                continue
            path = here / name
            rel = path.relative_to(root)
            student = display_name(rel.parts[0] if len(rel.parts) > 1 else os.path.splitext(rel.parts[0])[0])
            sub = Submission(path, student, display_name(str(rel)) if len(rel.parts) > 1 else display_name(name))
            if path.is_symlink():
                sub.status = symlink_status
            elif not path.is_file():
                continue
            else:
                try:
                    sub.data = _read(path)
                except OSError as exc:
                    sub.status, sub.detail = unreadable_status or symlink_status, type(exc).__name__
                if sub.data is not None and len(sub.data) > MAX_NOTEBOOK:
                    sub.data, sub.status = None, big_status
            found.append(sub)
    in_folder = {s.path.relative_to(root).parts[0] for s in found if s.path.suffix == ".ipynb" and not s.status}
    return [s for s in found if not (len(s.path.relative_to(root).parts) > 1 and s.path.suffix != ".ipynb"
                                     and s.path.relative_to(root).parts[0] in in_folder)]


def student_folders(root: Path) -> list[str]:
    """Every student folder's name (display form), hidden ones included: each gets a row in the reports."""
    names = []
    for entry in sorted(os.scandir(root), key=lambda e: e.name):
        if entry.name not in NOT_STUDENTS and entry.is_dir(follow_symlinks=False):
            names.append(display_name(entry.name))
    return names


def _text(source) -> str | None:
    if isinstance(source, str):
        return source
    if isinstance(source, list) and all(isinstance(s, str) for s in source):
        return "".join(source)
    return None


def parse(sub: Submission) -> bool:
    """Fill ``sub.nb`` / ``sub.cells`` from the bytes; a cell whose source is no text is run as empty."""
    import nbformat

    try:
        raw = json.loads(sub.data.decode("utf-8-sig"))
        cells = raw["cells"]
        if not isinstance(cells, list):
            raise TypeError("cells is not a list")
    except Exception as exc:
        sub.detail = f"{type(exc).__name__}: {str(exc)[:120]}"
        return False
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for n, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        text = _text(cell.get("source"))
        if text is None:
            sub.problems.append(f"第 {n} 个单元格的 source 不是文本，按空单元格处理 (cell {n}: source is not text, run as empty)")
            text = ""
        nb.cells.append(nbformat.v4.new_code_cell(text))
        sub.cells.append(text)
    sub.nb = nb
    return True


_MAGIC = re.compile(r"^\s*[%!].*$", re.M)
_CELL_MAGIC = re.compile(r"^\s*%%(\w+)")
PYTHON_CELL_MAGICS = ("time", "timeit", "capture", "prun", "debug")  # the body of these still runs as Python


def called_ids(cells: list[str], known) -> list[str]:
    """Exercise ids passed as a literal first argument to ``check(...)`` in code (not in comments)."""
    ids = []
    for text in cells:
        magic = _CELL_MAGIC.match(text)
        if magic and magic.group(1) not in PYTHON_CELL_MAGICS:  # %%script, %%bash, %%writefile …: no Python runs
            continue
        try:
            tree = ast.parse(_MAGIC.sub("", text))
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            first = node.args[0]
            if name == "check" and isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value in known:
                ids.append(first.value)
    return ids


def identify(sub: Submission, exercises) -> str | None:
    """The course notebook this file is: the one whose exercises its code checks most often."""
    counts = Counter(exercises[i].notebook for i in called_ids(sub.cells, exercises))
    if not counts:
        return None
    order = list(dict.fromkeys(ex.notebook for ex in exercises.values()))
    return max(counts, key=lambda nb: (counts[nb], -order.index(nb)))


def assignment(subs: list[Submission], exercises, chosen: list[str] | None = None) -> list[str]:
    """The course notebooks that form the columns: ``chosen``, else those more than half the students handed in."""
    order = list(dict.fromkeys(ex.notebook for ex in exercises.values()))
    if chosen:
        return [nb for nb in order if nb in chosen]
    students = {s.student for s in subs}
    handed = Counter(nb for _student, nb in {(s.student, s.notebook) for s in subs if s.notebook})
    return [nb for nb in order if handed[nb] * 2 > len(students)]
