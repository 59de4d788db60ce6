"""Where the grader's time goes, for one notebook: ``python -m helpers.grading.timing NOTEBOOK.ipynb``.

Grades one copy of the notebook the way ``python -m helpers.grading`` does (same jail, quick mode
unless ``--full``) and prints seconds for each stage:

- ``setup``: importing the grader and computing the answer key of the notebook's exercises;
- ``kernel start``: from the start of the run until the kernel answers (launcher, bubblewrap, IPython);
- ``recorder cell``: the grader's first cell (imports ``helpers.grading.record``);
- ``notebook cells``: the notebook's own cells, with the slowest ones named (their imports included:
  the first cell that imports torch or helpers pays for it);
- ``marking``: the real checkers, functions in sandbox children (``grading.marks``).

A measuring tool only: it wraps the runner's notebook client to take the times, nothing else changes.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path


def measure(path: Path, *, quick: bool = True, timeout: float = 600, call_timeout: float = 10) -> dict:
    """Seconds per stage of grading one notebook (see the module docstring)."""
    t0 = time.monotonic()
    from helpers.exercises import EXERCISES
    from helpers.grading import jail as jail_mod
    from helpers.grading import runner
    from helpers.grading.marks import mark_submission
    from helpers.grading.submissions import Submission, identify, parse

    sub = Submission(path, "timing", path.name, data=path.read_bytes())
    if not parse(sub):
        raise SystemExit(f"不是笔记本 (not a notebook)：{path}")
    sub.notebook = identify(sub, EXERCISES)
    columns = [i for i, ex in EXERCISES.items() if ex.notebook == sub.notebook]
    for i in columns:
        getattr(EXERCISES[i], "solution", None)
    times: dict = {"setup": time.monotonic() - t0, "cells": []}
    original = runner._client_class

    def timed_class():
        base = original()

        class Timed(base):
            async def async_start_new_kernel_client(self, **kwargs):
                start = time.monotonic()
                result = await super().async_start_new_kernel_client(**kwargs)
                times["kernel start"] = times.get("kernel start", 0) + time.monotonic() - start
                return result

            async def async_execute_cell(self, cell, cell_index, *args, **kwargs):
                start = time.monotonic()
                try:
                    return await super().async_execute_cell(cell, cell_index, *args, **kwargs)
                finally:
                    times["cells"].append((cell_index, time.monotonic() - start, cell.source.splitlines()[:1]))

        return Timed

    jail = jail_mod.Isolation()
    runner._client_class = timed_class
    try:
        start = time.monotonic()
        runner.run_notebook(sub, timeout=timeout, quick=quick, jail=jail)
        times["run"] = time.monotonic() - start
        start = time.monotonic()
        marks = mark_submission(sub, columns, call_timeout=call_timeout, jail=jail, deny=())
        times["marking"] = time.monotonic() - start
    finally:
        runner._client_class = original
        jail.close()
    cells = times.pop("cells")
    times["recorder cell"] = next((s for i, s, _ in cells if i == 0), 0.0)
    times["notebook cells"] = sum(s for i, s, _ in cells if i > 0)
    times["run, other"] = times["run"] - times.get("kernel start", 0) - times["recorder cell"] - times["notebook cells"]
    times["slowest cells"] = [(i, round(s, 2), (first or [""])[0][:60]) for i, s, first in
                              sorted(cells, key=lambda c: -c[1])[:5]]
    times["status"] = sub.status
    times["points"] = sum(m.points for m in marks.values())
    return times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m helpers.grading.timing", description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--full", action="store_true", help="full mode (default: quick, as the grader)")
    args = parser.parse_args(argv)
    if not args.notebook.is_file():
        print(f"找不到笔记本 (notebook not found)：{args.notebook}")
        return 2
    folder = Path(tempfile.mkdtemp(prefix="grade-timing-"))
    try:  # a copy: the run must not read the teacher's file while it may change
        copy = folder / args.notebook.name
        shutil.copyfile(args.notebook, copy)
        times = measure(copy, quick=not args.full)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps({k: (round(v, 2) if isinstance(v, float) else v) for k, v in times.items()}, ensure_ascii=False,
                     indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
