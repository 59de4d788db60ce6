"""Execute, clean and check the project's notebooks (the notebook policy in README, "贡献者须知").

Command line::

    python -m helpers.tools.notebooks execute            # full mode, rewrites every notebook with outputs
    python -m helpers.tools.notebooks execute --quick 03  # quick mode (NB_QUICK=1), only names containing "03"
    python -m helpers.tools.notebooks check              # policy check of the committed notebooks

Policy enforced here and in tests/test_notebooks.py:

* committed notebooks carry outputs produced by ``execute`` (top to bottom, in order);
* widget state metadata is stripped (viewers fall back to each widget's static ``image/png``);
* no error outputs and no absolute paths of the machine that ran them.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = ROOT / "notebooks"
KERNEL_NAME = "python3"
_PATH_PATTERN = re.compile(r"(/(?:work|root|tmp|home|Users)/[\w.\-]+|[A-Za-z]:\\\\?Users\\\\?)")


def notebook_paths(include_solutions: bool = True) -> list[Path]:
    """All notebooks in reading order (main ones first, then solutions)."""
    paths = sorted(NOTEBOOK_DIR.glob("[0-9][0-9]*_*.ipynb"))  # 00_… to 07_…, also 05a_ and 05b_
    if include_solutions:
        paths += sorted((NOTEBOOK_DIR / "solutions").glob("*.ipynb"))
    return paths


def execute_notebook(path: Path, *, quick: bool, timeout: int = 600, kernel_name: str = KERNEL_NAME,
                     runs: int = 1):
    """Run a notebook top to bottom in a fresh kernel (cwd = its folder); return the executed node.

    ``runs=2`` is "Run All" twice in the same kernel (what a teacher does after a demo); the returned
    node holds the second run's outputs. A failing cell raises nbclient's CellExecutionError.
    """
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(str(path), as_version=4)
    old = os.environ.get("NB_QUICK")
    os.environ["NB_QUICK"] = "1" if quick else "0"
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    try:
        client = NotebookClient(
            nb, timeout=timeout, kernel_name=kernel_name, resources={"metadata": {"path": str(path.parent)}}
        )
        if runs == 1:
            client.execute()
        else:
            with client.setup_kernel():
                for _ in range(runs):
                    for index, cell in enumerate(nb.cells):
                        client.execute_cell(cell, index)
    finally:
        if old is None:
            os.environ.pop("NB_QUICK", None)
        else:
            os.environ["NB_QUICK"] = old
    return nb


def clean_notebook(nb):
    """Strip widget state and run-specific metadata; scrub machine paths from outputs."""
    nb.metadata.pop("widgets", None)
    nb.metadata["kernelspec"] = {"name": KERNEL_NAME, "display_name": "Python 3 (ipykernel)", "language": "python"}
    root = str(ROOT)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for output in cell.get("outputs", []):
            if "text" in output:
                output["text"] = output["text"].replace(root, ".")
            for key, value in output.get("data", {}).items():
                if isinstance(value, str) and key.startswith("text"):
                    output["data"][key] = value.replace(root, ".")
    return nb


def policy_problems(nb) -> list[str]:
    """What breaks the notebook policy (empty list = fine)."""
    problems = []
    if "widgets" in nb.metadata:
        problems.append("widget state metadata present")
    counts = [c.get("execution_count") for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    if counts != list(range(1, len(counts) + 1)):
        problems.append(f"code cells not executed once in order: {counts}")
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                problems.append(f"cell {index}: error output {output.get('ename')}")
            text = output.get("text", "") + "".join(
                v for k, v in output.get("data", {}).items() if isinstance(v, str) and k.startswith("text")
            )
            if _PATH_PATTERN.search(text):
                problems.append(f"cell {index}: machine path in output: {_PATH_PATTERN.search(text).group(0)}")
            if output.get("name") == "stderr" and "Traceback" in text:
                problems.append(f"cell {index}: traceback on stderr")
    return problems


def main(argv=None) -> int:
    import nbformat

    parser = argparse.ArgumentParser(prog="python -m helpers.tools.notebooks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("execute", help="execute notebooks and save them with outputs")
    run.add_argument("names", nargs="*", help="only notebooks whose file name contains one of these")
    run.add_argument("--quick", action="store_true", help="quick mode (NB_QUICK=1); does not save unless --save")
    run.add_argument("--save", action="store_true", help="save outputs even in quick mode")
    sub.add_parser("check", help="check the committed notebooks against the policy")
    args = parser.parse_args(argv)

    paths = notebook_paths()
    if args.command == "check":
        bad = 0
        for path in paths:
            problems = policy_problems(nbformat.read(str(path), as_version=4))
            bad += bool(problems)
            print(f"{'OK ' if not problems else 'BAD'} {path.relative_to(ROOT)} {'; '.join(problems)}")
        return 1 if bad else 0
    if args.names:
        paths = [p for p in paths if any(n in p.name for n in args.names)]
    total = 0.0
    for path in paths:
        start = time.perf_counter()
        try:
            nb = execute_notebook(path, quick=args.quick)
        except Exception as exc:  # a missing kernel is the one set-up problem worth translating here
            if type(exc).__name__ != "NoSuchKernel":
                raise
            print(f"找不到 Jupyter 内核 '{KERNEL_NAME}' (kernel not found)。请在本仓库的环境里运行："
                  f"python -m ipykernel install --user --name {KERNEL_NAME}，或用 make lab / make test 建好 .venv。",
                  file=sys.stderr)
            return 2
        seconds = time.perf_counter() - start
        total += seconds
        if not args.quick or args.save:
            nbformat.write(clean_notebook(nb), str(path))
        print(f"{path.relative_to(ROOT)}: {seconds:.1f} s ({'quick' if args.quick else 'full'})", flush=True)
    print(f"total: {total:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
