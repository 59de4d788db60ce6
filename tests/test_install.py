"""The install step of the Makefile: CPU torch on Linux without a CUDA download, and `make lab` as root.

The recipe runs for real, against a fake virtual environment whose `python` only logs its arguments
(and pretends that no local torch wheel exists when asked to), so nothing is installed or downloaded.
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers.tools import labsetup

ROOT = Path(__file__).resolve().parents[1]
CPU_INDEX = "https://download.pytorch.org/whl/cpu"

FAKE_PYTHON = """#!/usr/bin/env bash
echo "$*" >> "$(dirname "$0")/../calls.log"
if [ "$FAKE_LOCAL_TORCH" = "0" ] && [[ " $* " == *" --no-index "* ]]; then exit 1; fi
exit 0
"""

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _install(tmp_path, local_torch: bool, **variables) -> list[str]:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    python = venv / "bin" / "python"
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    args = [f"{k}={v}" for k, v in {"VENV": venv, **variables}.items()]
    env = {"PATH": "/usr/bin:/bin", "FAKE_LOCAL_TORCH": "1" if local_torch else "0"}
    subprocess.run(["make", "--no-print-directory", f"{venv}/.installed", *args], cwd=ROOT, env=env,
                   check=True, capture_output=True, text=True)
    return (venv / "calls.log").read_text().splitlines()


def _index(calls, fragment):
    return next(i for i, call in enumerate(calls) if fragment in call)


def test_linux_takes_a_local_torch_first_and_never_contacts_the_cpu_index(tmp_path):
    calls = _install(tmp_path, local_torch=True, OS="Linux")
    assert "--no-index --no-deps torch==2.13.0" in calls[0]
    assert not any(CPU_INDEX in call for call in calls)
    assert _index(calls, "-r requirements.txt") < _index(calls, "-m helpers.tools.labsetup")


def test_linux_without_a_local_wheel_gets_torch_from_the_cpu_index_before_the_rest(tmp_path):
    calls = _install(tmp_path, local_torch=False, OS="Linux")
    assert _index(calls, "--no-index --no-deps torch==2.13.0") < _index(calls, f"--index-url {CPU_INDEX} torch==2.13.0")
    assert _index(calls, CPU_INDEX) < _index(calls, "-r requirements.txt")


@pytest.mark.parametrize("variables", [{"OS": "Darwin"}, {"OS": "Linux", "TORCH_CPU": "0"}])
def test_macos_and_the_gpu_opt_out_install_torch_from_requirements_only(tmp_path, variables):
    calls = _install(tmp_path, local_torch=False, **variables)
    assert not any("torch==2.13.0" in call or CPU_INDEX in call for call in calls)
    assert any("-r requirements.txt" in call for call in calls)


@pytest.mark.parametrize(("user_id", "flag"), [("0", True), ("1000", False)])
def test_make_lab_allows_root_only_for_root_and_opens_notebooks(user_id, flag):
    out = subprocess.run(["make", "-n", "--no-print-directory", "lab", f"USER_ID={user_id}"], cwd=ROOT,
                         check=True, capture_output=True, text=True).stdout.splitlines()
    lab = [line for line in out if "jupyter lab" in line]
    assert len(lab) == 1 and lab[0].endswith(" notebooks/")
    assert ("--allow-root" in lab[0]) is flag


def test_labsetup_writes_chinese_quiet_settings_and_the_font_into_the_environment(tmp_path):
    written = labsetup.install(tmp_path)
    assert all(path.is_relative_to(tmp_path) for path in written)
    overrides = json.loads((tmp_path / "share/jupyter/lab/settings/overrides.json").read_text())
    assert overrides["@jupyterlab/translation-extension:plugin"]["locale"] == "zh_CN"
    assert overrides["@jupyterlab/apputils-extension:notification"] == {"fetchNews": "false", "checkForUpdates": False}
    config = json.loads((tmp_path / "etc/jupyter" / labsetup.CONFIG_NAME).read_text())
    custom = Path(config["ServerApp"]["tornado_settings"]["static_custom_path"][0])
    assert config["LabApp"]["custom_css"] is True
    assert (custom / "NotoSansSC-Subset.otf").read_bytes() == labsetup.FONT.read_bytes()
    assert 'url("NotoSansSC-Subset.otf")' in (custom / "custom.css").read_text()


def test_language_pack_is_pinned_in_both_environments():
    pin = "jupyterlab-language-pack-zh-cn==4.5.post3"
    assert pin in (ROOT / "requirements.txt").read_text().lower()
    environment = (ROOT / "environment.yml").read_text()
    assert "-r requirements.txt" in environment and CPU_INDEX in environment
