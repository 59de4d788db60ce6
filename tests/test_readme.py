"""The README's "use it from Python / the command line" section runs as written.

Every ```python block of the README runs in a fresh interpreter, in document order, in one temporary
folder (so a later block finds the checkpoint an earlier command wrote); every ``python -m helpers.…``
line of that section's ```bash blocks runs as a command there too. A comment ``# → text`` after a
``print`` promises that output: the test checks it appears.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTION = "## 在 Python 和命令行里使用（use it from Python / the command line）"
BLOCK = re.compile(r"^```(python|bash)\n(.*?)^```", re.M | re.S)


def api_section() -> str:
    start = README.index(SECTION)
    end = README.find("\n## ", start + len(SECTION))
    return README[start:end]


def snippets() -> list[tuple[str, str]]:
    """(language, code) of the API section's python and bash blocks, in order."""
    return [(m.group(1), m.group(2)) for m in BLOCK.finditer(api_section())]


def promised_outputs(code: str) -> list[str]:
    return [m.group(1).split("  ")[0].strip() for m in re.finditer(r"#\s*→\s*(.+)$", code, re.M)]


def test_every_python_block_of_the_readme_is_in_the_tested_section():
    everywhere = [m.group(2) for m in BLOCK.finditer(README) if m.group(1) == "python"]
    tested = [code for lang, code in snippets() if lang == "python"]
    assert tested and everywhere == tested


def test_the_section_translates_plots_trains_and_loads():
    code = "\n".join(code for _, code in snippets())
    for needle in ("load_pretrained(", "translate(", "plot_attention(", "python -m helpers.train", "load_checkpoint("):
        assert needle in code, needle


@pytest.mark.timeout(300)
def test_the_readme_snippets_run_as_written(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg", "PYTHONIOENCODING": "utf-8"}
    for lang, code in snippets():
        if lang == "python":
            done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                                  text=True, encoding="utf-8", timeout=120)
            assert done.returncode == 0, f"{code}\n--- stderr:\n{done.stderr[-3000:]}"
            for expected in promised_outputs(code):
                assert expected in done.stdout, f"README promises {expected!r}, got:\n{done.stdout}"
            continue
        for line in code.splitlines():
            command = line.split("  #")[0].strip()
            if not command.startswith("python -m helpers."):
                continue
            argv = [sys.executable, *shlex.split(command)[1:]]
            done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, encoding="utf-8",
                                  timeout=180)
            assert done.returncode == 0, f"{command}\n--- stderr:\n{done.stderr[-3000:]}"
    assert (tmp_path / "attention.png").stat().st_size > 10_000  # the heatmap was drawn
    assert (tmp_path / "my-luong-dot.pt").is_file()
