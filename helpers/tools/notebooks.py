"""Execute, clean and check the project's notebooks (the notebook policy in README, "贡献者须知").

Command line::

    python -m helpers.tools.notebooks execute            # full mode, rewrites every notebook with outputs
    python -m helpers.tools.notebooks execute --quick 03  # quick mode (NB_QUICK=1), only names containing "03"
    python -m helpers.tools.notebooks check              # policy check of the committed notebooks

``execute`` also checks the claims registered in tests/claims (full-only ones in full mode) and lists
the ones that no longer hold; it saves the outputs all the same and exits with status 1.

Policy enforced here and in tests/test_notebooks.py:

* committed notebooks carry outputs produced by ``execute`` (top to bottom, in order);
* widget state metadata is stripped (viewers fall back to each widget's static ``image/png``);
* no error outputs and no absolute paths of the machine that ran them;
* no ``assert`` in a code cell: the claims that the prose makes about outputs are registered in
  tests/claims/ (a :class:`Claim` per check, by cell id) and checked in the kernel right after their
  cell ran (:func:`execute_notebook` with ``claims=``), so a student who edits a cell sees a different
  result, never an AssertionError (DESIGN §8).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Claim:
    """A claim that a notebook's prose makes about an output, with the check that backs it.

    ``check`` is a Python expression evaluated in the kernel's namespace right after the cell with id
    ``cell`` ran; the claim holds when it is true. ``says`` is the claim in one line. A ``full_only``
    claim holds only for the full-mode run (NB_QUICK=0): quick mode does not check it.
    """

    cell: str
    check: str
    says: str = ""
    full_only: bool = False


@dataclass(frozen=True)
class ClaimFailure:
    """A claim that did not hold: ``got`` is "False" or the exception that the check raised."""

    claim: Claim
    cell_index: int
    runs: tuple[int, ...]  # the runs of "Run All" in which it failed this way
    got: str

    def __str__(self) -> str:
        says = self.claim.says or "(no description)"
        runs = ", ".join(map(str, self.runs))
        return (f"cell {self.cell_index} (id {self.claim.cell}), run {runs}: {says}\n"
                f"    check: {self.claim.check}\n    got: {self.got}")


class ClaimsFailed(AssertionError):
    """Raised by :func:`execute_notebook` after the last run when some claims did not hold."""

    def __init__(self, path: Path, failures: list[ClaimFailure], nb=None):
        self.failures, self.nb = failures, nb
        lines = [f"{len(failures)} claim(s) of {path.name} did not hold:"] + [str(f) for f in failures]
        super().__init__("\n".join(lines))


async def _check_claims(client, claims: list[Claim]) -> list[str | None]:
    """Evaluate each claim's check in the kernel; per claim None (holds) or what went wrong.

    One silent request with ``user_expressions``: nothing is printed, the execution counter does not
    move and the kernel's namespace is left as it was.
    """
    expressions = {f"c{k}": f"bool({claim.check})" for k, claim in enumerate(claims)}
    msg_id = client.kc.execute("", silent=True, store_history=False, user_expressions=expressions)
    reply = await client.async_wait_for_reply(msg_id)
    results = reply["content"].get("user_expressions", {}) if reply else {}
    out = []
    for k in range(len(claims)):
        result = results.get(f"c{k}")
        if result is None:
            out.append("no answer from the kernel")
        elif result.get("status") != "ok":
            out.append(f"{result.get('ename')}: {result.get('evalue')}")
        else:
            value = result.get("data", {}).get("text/plain")
            out.append(None if value == "True" else str(value))
    return out


def execute_notebook(path: Path, *, quick: bool, timeout: int = 600, kernel_name: str = KERNEL_NAME,
                     runs: int = 1, claims: list[Claim] | None = None):
    """Run a notebook top to bottom in a fresh kernel (cwd = its folder); return the executed node.

    ``runs=2`` is "Run All" twice in the same kernel (what a teacher does after a demo); the returned
    node holds the second run's outputs. A failing cell raises nbclient's CellExecutionError.

    ``claims``: after each cell with claims, in every run, their checks are evaluated in the kernel
    (full-only claims only when ``quick`` is false). After the last run, :class:`ClaimsFailed` lists
    every claim that did not hold, with its description; a claim whose cell id is not in the notebook
    is a failure too.
    """
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(str(path), as_version=4)
    active = [c for c in (claims or []) if not (quick and c.full_only)]
    by_cell: dict[str, list[Claim]] = {}
    for claim in active:
        by_cell.setdefault(claim.cell, []).append(claim)
    ids = [cell.get("id") for cell in nb.cells]
    failures = [ClaimFailure(c, -1, (), "no cell with this id") for c in active if c.cell not in ids]
    old = os.environ.get("NB_QUICK")
    os.environ["NB_QUICK"] = "1" if quick else "0"
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    try:
        client = NotebookClient(
            nb, timeout=timeout, kernel_name=kernel_name, resources={"metadata": {"path": str(path.parent)}}
        )
        run = 1

        async def check_after(cell, cell_index, execute_reply):  # nbclient's on_cell_executed hook
            mine = by_cell.get(cell.get("id"), [])
            if mine:
                got = await _check_claims(client, mine)
                failures.extend(ClaimFailure(c, cell_index, (run,), g) for c, g in zip(mine, got) if g is not None)

        if by_cell:
            client.on_cell_executed = check_after
        if runs == 1:
            client.execute()
        else:
            with client.setup_kernel():
                for run in range(1, runs + 1):  # noqa: B007 - check_after reads it
                    for index, cell in enumerate(nb.cells):
                        client.execute_cell(cell, index)
    finally:
        if old is None:
            os.environ.pop("NB_QUICK", None)
        else:
            os.environ["NB_QUICK"] = old
    if failures:
        merged: dict[tuple, ClaimFailure] = {}  # the same failure in every run is listed once
        for f in failures:
            key = (f.claim, f.cell_index, f.got)
            old_runs = merged[key].runs if key in merged else ()
            merged[key] = ClaimFailure(f.claim, f.cell_index, old_runs + f.runs, f.got)
        raise ClaimsFailed(path, list(merged.values()), nb)
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


def registered_claims(path: Path) -> list[Claim]:
    """The claims that tests/claims registers for ``path`` ([] outside a checkout with tests/)."""
    tests = ROOT / "tests"
    if not (tests / "claims" / "__init__.py").exists():
        return []
    if str(tests) not in sys.path:
        sys.path.insert(0, str(tests))
    from claims import claims_for

    return claims_for(path.relative_to(NOTEBOOK_DIR).as_posix())


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
    total, broken = 0.0, 0
    for path in paths:
        start = time.perf_counter()
        try:
            nb = execute_notebook(path, quick=args.quick, claims=registered_claims(path))
        except ClaimsFailed as failed:  # outputs are saved all the same: rewrite the prose and its claims next
            nb, broken = failed.nb, broken + len(failed.failures)
            print(failed, file=sys.stderr)
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
    print(f"total: {total:.1f} s" + (f"; {broken} registered claim(s) did not hold (tests/claims)" if broken else ""))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
