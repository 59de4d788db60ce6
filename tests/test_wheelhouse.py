"""The offline classroom: ``python -m helpers.tools.wheelhouse`` fills a folder that installs with no index.

The marker and tag logic is checked on small hand-made wheels. The real run downloads from the package
index: it fills the folder for Windows (prepared here, on Linux) and checks what an install there needs,
then fills it for this machine and installs requirements.txt into a fresh venv from that folder alone
(``--no-index``, no pip configuration). Without a reachable index these two tests skip with a reason;
with REQUIRE_NETWORK=1 (set by .ci/run) they fail instead.
"""

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from helpers.tools import wheelhouse
from helpers.tools.wheelhouse import Target, applies, check_folder, root_requirements

ROOT = Path(__file__).resolve().parents[1]
WINDOWS = Target("windows", "3.11", "AMD64")
LINUX = Target("linux", "3.11", "x86_64")
MAC = Target("macos", "3.11", "arm64")


def _fake_wheel(folder: Path, filename: str, requires=()) -> Path:
    name, version = filename.split("-")[:2]
    path = folder / filename
    with zipfile.ZipFile(path, "w") as archive:
        lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
        lines += [f"Requires-Dist: {r}" for r in requires]
        archive.writestr(f"{name}-{version}.dist-info/METADATA", "\n".join(lines) + "\n")
    return path


def test_markers_are_evaluated_for_the_target_not_for_this_machine():
    colorama = Requirement('colorama; platform_system == "Windows"')
    pexpect = Requirement('pexpect>4.3; sys_platform != "win32" and sys_platform != "emscripten"')
    nvidia = Requirement('nvidia-cublas==13.1; platform_system == "Linux"')
    assert applies(colorama, WINDOWS, set()) and not applies(colorama, LINUX, set())
    assert applies(pexpect, LINUX, set()) and applies(pexpect, MAC, set()) and not applies(pexpect, WINDOWS, set())
    assert applies(nvidia, LINUX, set()) and not applies(nvidia, WINDOWS, set())
    old = Requirement('tomli>=1.1; python_version < "3.11"')
    assert not applies(old, WINDOWS, set()) and applies(old, Target("windows", "3.10", "AMD64"), set())


def test_an_extra_applies_only_when_asked_for():
    req = Requirement('httpx; extra == "web"')
    assert not applies(req, LINUX, set())
    assert applies(req, LINUX, {"web"})


def test_wheel_tags_of_each_target():
    from packaging.tags import Tag
    assert Tag("cp311", "cp311", "win_amd64") in WINDOWS.tags()
    assert Tag("py3", "none", "any") in WINDOWS.tags()
    assert Tag("cp311", "cp311", "manylinux_2_28_x86_64") not in WINDOWS.tags()
    assert Tag("cp311", "cp311", "manylinux_2_17_x86_64") in LINUX.tags()
    assert Tag("cp311", "abi3", "macosx_10_9_universal2") in MAC.tags()  # universal2 runs on Apple silicon
    assert Tag("cp312", "cp312", "win_amd64") not in WINDOWS.tags()


def test_root_requirements_are_requirements_txt_plus_the_build_backend_without_the_editable_line():
    names = [r.name for r in root_requirements()]
    assert "torch" in names and "jupyterlab" in names and "setuptools" in names
    assert not any(name.startswith("-") or name == "." for name in names)
    text = (ROOT / "requirements.txt").read_text()
    assert "-e ." in text


def test_check_folder_names_a_missing_requirement_a_wrong_version_and_a_wheel_for_another_os(tmp_path, monkeypatch):
    (tmp_path / "requirements.txt").write_text("alpha==1.0\n-e .\n")
    (tmp_path / "pyproject.toml").write_text('[build-system]\nrequires = ["setuptools>=61"]\n')
    _fake_wheel(tmp_path, "alpha-1.0-py3-none-any.whl",
                ['beta>=2', 'colorama; platform_system == "Windows"', 'pexpect; sys_platform != "win32"'])
    _fake_wheel(tmp_path, "beta-1.5-cp311-cp311-win_amd64.whl")
    _fake_wheel(tmp_path, "setuptools-80.0-py3-none-any.whl")
    _fake_wheel(tmp_path, "wheel-0.45-py3-none-any.whl")
    problems = check_folder(tmp_path, LINUX, root=tmp_path)
    text = "\n".join(problems)
    assert "beta 1.5 不满足 (does not satisfy) beta>=2" in text
    assert "beta-1.5-cp311-cp311-win_amd64.whl：不适用于 (does not fit) linux" in text
    assert "缺少 (missing) pexpect" in text
    assert "colorama" not in text  # Windows only
    assert len(problems) == 3
    windows = "\n".join(check_folder(tmp_path, WINDOWS, root=tmp_path))
    assert "colorama" in windows and "pexpect" not in windows and "不适用于" not in windows


def test_a_complete_folder_has_no_problems(tmp_path):
    (tmp_path / "requirements.txt").write_text("alpha==1.0\n")
    (tmp_path / "pyproject.toml").write_text('[build-system]\nrequires = ["setuptools>=61"]\n')
    _fake_wheel(tmp_path, "alpha-1.0-py3-none-any.whl", ["beta>=2"])
    _fake_wheel(tmp_path, "beta-2.0-cp311-cp311-manylinux_2_17_x86_64.whl")
    _fake_wheel(tmp_path, "setuptools-80.0-py3-none-any.whl")
    _fake_wheel(tmp_path, "wheel-0.45-py3-none-any.whl")
    assert check_folder(tmp_path, LINUX, root=tmp_path) == []


def test_a_bad_python_version_is_refused_with_a_hint(capsys):
    with pytest.raises(SystemExit) as exit_info:
        wheelhouse.main(["--python", "three", "--out", "unused"])
    assert exit_info.value.code == 2
    assert "3.11 这样的版本号" in capsys.readouterr().err


# --- the real thing: needs the package index ----------------------------------------------------

@pytest.fixture(scope="module")
def index():
    probe = subprocess.run([sys.executable, "-m", "pip", "index", "versions", "six"], capture_output=True, text=True)
    if probe.returncode != 0:
        reason = "连不上软件包索引 (package index unreachable)：离线时无法准备 wheel 文件夹"
        if os.environ.get("REQUIRE_NETWORK") == "1":
            pytest.fail(reason + " (REQUIRE_NETWORK=1)", pytrace=False)
        pytest.skip(reason)


@pytest.mark.slow
def test_a_windows_folder_prepared_on_linux_has_what_windows_needs_and_nothing_linux_only(tmp_path, index):
    out = tmp_path / "wheels"
    wheels = wheelhouse.fill(out, WINDOWS, log=lambda *_: None)
    names = {p.name.split("-")[0].lower() for p in wheels}
    assert {"torch", "numpy", "jupyterlab", "colorama", "pywinpty", "jieba"} <= names
    assert not names & {"pexpect", "ptyprocess"}
    assert not any(name.startswith("nvidia") for name in names)
    torch = next(p.name for p in wheels if p.name.startswith("torch-"))
    assert torch.startswith("torch-2.13.0-") and torch.endswith("win_amd64.whl")
    assert check_folder(out, WINDOWS) == []


@pytest.mark.slow
def test_this_machines_folder_installs_everything_with_no_index(tmp_path, index):
    out = tmp_path / "wheels"
    target = wheelhouse.this_machine()
    wheels = wheelhouse.fill(out, target, log=lambda *_: None)
    if target.os == "linux":
        assert any("+cpu" in p.name for p in wheels if p.name.startswith("torch-"))
        assert not any(p.name.startswith("nvidia") for p in wheels)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    env = {**os.environ, "PIP_CONFIG_FILE": os.devnull, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(out)}
    env.pop("PIP_EXTRA_INDEX_URL", None)
    env.pop("PIP_INDEX_URL", None)
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                              "-r", "requirements.txt"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert install.returncode == 0, install.stderr[-2000:]
    check = subprocess.run([str(python), "-c", "import torch, jupyterlab, ipywidgets, matplotlib, pytest, sphinx, "
                            "myst_nb, jieba, playwright, helpers; print(torch.__version__)"],
                           cwd=tmp_path, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr[-2000:]
    assert check.stdout.strip().startswith("2.13.0")
