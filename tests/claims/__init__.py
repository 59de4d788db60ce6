"""The claims registry: what each notebook's prose says about its outputs, and the check behind it.

One module per notebook (nb01.py for 01_information_bottleneck.ipynb, nb01_solutions.py for its
solution notebook) with ``NOTEBOOK`` (the path under notebooks/) and ``CLAIMS``, a list of
:class:`helpers.tools.notebooks.Claim`: the id of the cell after which the check runs, the check (a
Python expression evaluated in the kernel's namespace) and the claim in one line. tests/test_notebooks.py
checks them in the same quick-mode run that executes the notebook; ``python -m helpers.tools.notebooks
execute`` (full mode) checks them all, full-only ones included, and reports the ones that fail.

When a notebook is re-executed on new models and its commentary rewritten, update its claims here:
a claim the prose no longer makes is deleted, a new one is added next to its cell.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from helpers.tools.notebooks import Claim

HERE = Path(__file__).resolve().parent


def modules() -> dict[str, object]:
    """Registry module by notebook path under notebooks/ (e.g. "solutions/03_idea_solutions.ipynb")."""
    out = {}
    for file in sorted(HERE.glob("nb*.py")):
        module = importlib.import_module(f"{__name__}.{file.stem}")
        out[module.NOTEBOOK] = module
    return out


def claims_for(notebook: str) -> list[Claim]:
    """The registered claims of a notebook (path under notebooks/); [] when it has none."""
    module = modules().get(notebook)
    return list(module.CLAIMS) if module else []
