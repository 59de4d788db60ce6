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
