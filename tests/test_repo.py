"""Repository contracts: README and CI agree, versions are pinned, no machine paths are committed."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _readme_commands():
    block = re.search(r"## 快速开始.*?```bash\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_readme_quick_start_is_exactly_two_commands():
    assert _readme_commands() == ["make lab", "make test"]


def test_ci_runs_the_readme_test_command_verbatim():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test_command = _readme_commands()[1]
    assert any(line.split("#")[0].strip() == test_command for line in ci.splitlines())


def test_ci_treats_no_tests_collected_as_failure():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert '"$rc" = "5"' in ci and "exit 1" in ci


def test_torch_is_pinned_exactly_and_the_rest_compatibly():
    lines = [line.split("#")[0].strip() for line in (ROOT / "requirements.txt").read_text().splitlines()]
    packages = [line for line in lines if line and not line.startswith("-e")]
    assert "torch==2.13.0" in packages
    for line in packages:
        assert "==" in line or "~=" in line, f"unpinned requirement: {line}"


def test_no_machine_paths_in_committed_text_files():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    pattern = re.compile(r"/(work|root|home)/[A-Za-z0-9_.-]+")
    offenders = []
    for name in files:
        path = ROOT / name
        if path.suffix in {".py", ".md", ".ipynb", ".json", ".txt", ".toml", ".yml", ""} and path.is_file():
            text = path.read_text(encoding="utf-8", errors="ignore")
            if pattern.search(text):
                offenders.append(name)
    assert offenders == []


# --- the layout of helpers/ (DESIGN §2): the top level is the chapter, everything else has a room ---

CHAPTER = {"attention.py", "decoders.py", "seq2seq.py"}  # the model code a reader studies
WORKFLOW = {"train.py", "decode.py", "checkpoint.py", "metrics.py"}  # the workflow around a model


def _tracked(pattern):
    out = subprocess.run(["git", "ls-files", pattern], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [Path(line) for line in out.split()]


def test_the_top_level_of_helpers_is_the_chapter_and_its_workflow():
    top = {p.name for p in (ROOT / "helpers").iterdir() if p.is_file() and p.suffix in {".py", ".json"}}
    assert top == CHAPTER | WORKFLOW | {"__init__.py"}


def test_every_folder_of_helpers_with_code_is_a_package_and_no_two_modules_share_a_name():
    modules = [p for p in _tracked("helpers") if p.suffix == ".py"]
    for folder in {p.parent for p in modules}:
        assert (ROOT / folder / "__init__.py").is_file(), f"{folder} has no __init__.py (setuptools would skip it)"
    names = [p.stem for p in modules if p.stem not in {"__init__", "__main__"}]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []


def test_the_moved_modules_are_importable_from_their_rooms():
    import importlib

    for module in ("helpers.analysis.probes", "helpers.analysis.attribution", "helpers.exercises.reveals",
                   "helpers.extras.kernel_regression", "helpers.extras.localp", "helpers.extras.localp_results",
                   "helpers.extras.padding", "helpers.runtime.env", "helpers.runtime.errors", "helpers.runtime.safeio",
                   "helpers.runtime.outputs", "helpers.translation.source", "helpers.translation.copying",
                   "helpers.translation.penalties", "helpers.speedups.teacher_forcing", "helpers.grading.runner",
                   "helpers.grading.jail", "helpers.grading.sandbox", "helpers.grading.record"):
        assert importlib.import_module(module).__name__ == module
    from helpers.extras.localp_results import RESULTS_PATH

    assert RESULTS_PATH.is_file()  # the precomputed run travels with its module (package data of helpers.extras)
