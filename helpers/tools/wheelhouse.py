"""Fill a folder with every wheel that ``make lab`` and ``make test`` install, for a chosen OS and Python.

``python -m helpers.tools.wheelhouse --os windows --python 3.11 --out wheels`` (or ``make wheels``)
runs on one machine with network; the folder then goes, with the repository, to each offline laptop,
where ``pip install --no-index --find-links wheels -r requirements.txt`` (the README's recipe) needs
nothing else.

Why not just ``pip download -r requirements.txt --platform …``:

- pip evaluates environment markers against the interpreter it runs in, not the target. Prepared on
  Linux for Windows it would fetch Linux-only packages (``pexpect``; torch's ``nvidia-*``, which have no
  Windows wheel, so it fails) and miss Windows-only ones (``colorama``, needed by ``tqdm``, ``click``,
  ``pytest``…). This module resolves the dependency closure itself: it downloads each package with
  ``--no-deps`` for the target's wheel tags, reads the wheel's ``Requires-Dist`` and evaluates every
  marker for the target (OS, machine, Python version, requested extras).
- ``--platform`` needs ``--only-binary=:all:``, and a few requirements ship only a source archive
  (``jieba``). Those are built here into wheels with ``pip wheel``; a pure-Python wheel
  (``py3-none-any``) installs on every OS. A source-only package with compiled code cannot be built
  for another OS here, and the command says so.
- On Linux, PyPI's ``torch`` is the CUDA build (several GB of ``nvidia-*``). As ``make`` does, the CPU
  build is taken first: from what pip already finds locally (``--no-index``, the machine's
  ``find-links``), else from PyTorch's CPU index; its metadata lists no ``nvidia-*``.
- ``-e .`` (this repository, installed editable) needs its build backend offline too:
  ``[build-system] requires`` of ``pyproject.toml`` (setuptools) is added to the folder.

Versions: each package gets the newest release that satisfies every specifier seen for it so far;
a later, stricter specifier replaces the file. ``check_folder`` then verifies the result independently:
every wheel's tags fit the target and every requirement that applies on the target is met by a wheel
in the folder (tests/test_wheelhouse.py runs it, and installs this machine's folder into a fresh venv
with no index).
"""

from __future__ import annotations

import argparse
import email.parser
import platform
import re
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.tags import Tag, compatible_tags, cpython_tags, mac_platforms
from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import Version

from helpers.runtime.errors import HelpersError

ROOT = Path(__file__).resolve().parents[2]
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
OSES = ("linux", "windows", "macos")


class WheelhouseError(HelpersError):
    """The folder could not be filled; the message says why and what to do."""


# --- the target -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Target:
    """An OS, a machine and a CPython version: the wheel tags pip accepts and the marker values there."""

    os: str
    python: str  # "3.11"
    machine: str  # x86_64, aarch64, arm64, AMD64

    @property
    def platforms(self) -> list[str]:
        """Platform tags in pip's ``--platform`` spelling, most specific first."""
        if self.os == "windows":
            return ["win_amd64"]
        if self.os == "macos":  # macOS 15 and every older release down to the oldest the arch had
            arch = "arm64" if self.machine in ("arm64", "aarch64") else "x86_64"
            return list(mac_platforms((15, 0), arch))
        arch = "aarch64" if self.machine in ("arm64", "aarch64") else "x86_64"
        glibc = [f"manylinux_2_{minor}_{arch}" for minor in range(28, 16, -1)]
        return glibc + [f"manylinux2014_{arch}", f"manylinux_2_5_{arch}", f"manylinux1_{arch}", f"linux_{arch}"]

    @property
    def version_tuple(self) -> tuple[int, int]:
        major, minor = self.python.split(".")[:2]
        return int(major), int(minor)

    def tags(self) -> set[Tag]:
        """Every wheel tag an install on the target accepts (CPython: cp3x, abi3, py3-none-any…)."""
        tags = set(cpython_tags(self.version_tuple, platforms=self.platforms))
        tags |= set(compatible_tags(self.version_tuple, interpreter=f"cp{''.join(map(str, self.version_tuple))}",
                                    platforms=self.platforms))
        return tags

    def markers(self, extra: str = "") -> dict[str, str]:
        """The values PEP 508 markers compare with on the target."""
        system, sys_platform, os_name = {"linux": ("Linux", "linux", "posix"),
                                         "windows": ("Windows", "win32", "nt"),
                                         "macos": ("Darwin", "darwin", "posix")}[self.os]
        machine = {"windows": "AMD64"}.get(self.os, self.machine)
        return {"implementation_name": "cpython", "implementation_version": f"{self.python}.0",
                "os_name": os_name, "platform_machine": machine, "platform_python_implementation": "CPython",
                "platform_release": "", "platform_system": system, "platform_version": "",
                "python_full_version": f"{self.python}.0", "python_version": self.python,
                "sys_platform": sys_platform, "extra": extra}

    def pip_flags(self) -> list[str]:
        flags = ["--only-binary=:all:", "--python-version", self.python, "--implementation", "cp",
                 "--abi", f"cp{''.join(map(str, self.version_tuple))}", "--abi", "abi3", "--abi", "none"]
        for tag in self.platforms:
            flags += ["--platform", tag]
        return flags


def this_machine() -> Target:
    """The target this interpreter runs on."""
    system = platform.system()
    os_name = {"Windows": "windows", "Darwin": "macos"}.get(system, "linux")
    return Target(os_name, f"{sys.version_info.major}.{sys.version_info.minor}", platform.machine())


# --- requirements -----------------------------------------------------------------------------------

def root_requirements(root: Path = ROOT) -> list[Requirement]:
    """requirements.txt without ``-e .`` (and other pip options), plus the build backend of ``-e .``."""
    reqs = []
    for line in (root / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        reqs.append(Requirement(line))
    reqs += [Requirement(spec) for spec in _build_requires(root / "pyproject.toml")]
    reqs.append(Requirement("wheel"))  # editable builds with older setuptools ask for it
    return reqs


def _build_requires(pyproject: Path) -> list[str]:
    """``[build-system] requires`` (read by hand: tomllib is 3.11+ and the project supports 3.10)."""
    text = pyproject.read_text(encoding="utf-8")
    section = re.search(r"^\[build-system\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    listed = re.search(r"^requires\s*=\s*\[(.*?)\]", section.group(1), re.M | re.S) if section else None
    if listed is None:
        raise WheelhouseError(f"{pyproject} 里没有 [build-system] requires (build backend not declared)。")
    return re.findall(r"[\"']([^\"']+)[\"']", listed.group(1))


def wheel_requirements(path: Path) -> tuple[str, Version, list[Requirement]]:
    """Name, version and Requires-Dist of a wheel file (read from its METADATA, nothing is installed)."""
    name, version, _, _ = parse_wheel_filename(path.name)
    with zipfile.ZipFile(path) as archive:
        meta_name = next((n for n in archive.namelist()
                          if n.endswith(".dist-info/METADATA") and n.count("/") == 1), None)
        if meta_name is None:
            raise WheelhouseError(f"{path.name} 里没有 METADATA (not a valid wheel)：删掉它后重新运行。")
        meta = email.parser.Parser().parsestr(archive.read(meta_name).decode("utf-8"))
    reqs = []
    for spec in meta.get_all("Requires-Dist") or []:
        try:
            reqs.append(Requirement(spec))
        except InvalidRequirement:
            continue  # a malformed line in someone else's metadata; pip ignores it too
    return name, version, reqs


def applies(req: Requirement, target: Target, extras: set[str]) -> bool:
    """Whether a requirement is needed on the target, given the extras asked of its parent."""
    if req.marker is None:
        return True
    return any(req.marker.evaluate(target.markers(extra)) for extra in (extras or {""}) | {""})


# --- filling the folder -----------------------------------------------------------------------------

@dataclass
class _Wanted:
    spec: SpecifierSet = field(default_factory=SpecifierSet)
    extras: set[str] = field(default_factory=set)
    url_name: str = ""


def _pip(args: list[str], log) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]
    return subprocess.run(cmd, capture_output=True, text=True)


def _wheels(folder: Path) -> dict[str, Path]:
    found = {}
    for path in sorted(folder.glob("*.whl")):
        name, _, _, _ = parse_wheel_filename(path.name)
        found[canonicalize_name(name)] = path
    return found


def _missing_name(stderr: str) -> str | None:
    match = re.search(r"No matching distribution found for ([A-Za-z0-9_.\-]+)", stderr)
    return canonicalize_name(match.group(1)) if match else None


def _build_pure_wheel(spec: str, out: Path, target: Target, log) -> Path:
    """Build a wheel from a source-only release; only a pure-Python one is accepted for another OS."""
    before = set(out.glob("*.whl"))
    done = _pip(["wheel", "--no-deps", "--no-binary", ":all:", "-w", str(out), spec], log)
    new = sorted(set(out.glob("*.whl")) - before)
    if done.returncode != 0 or not new:
        raise WheelhouseError(f"{spec} 只有源码包，在这里也无法构建成 wheel (no wheel, and building one failed)：\n"
                              f"{done.stderr.strip()[-800:]}")
    wheel = new[0]
    _, _, _, tags = parse_wheel_filename(wheel.name)
    if not tags & target.tags():
        wheel.unlink()
        raise WheelhouseError(f"{spec} 只有源码包，而且含有需要编译的代码 (source-only, not pure Python)："
                              f"只能在目标系统 ({target.os}, Python {target.python}) 上运行本命令。")
    log(f"  {spec}: 只有源码包，已构建为纯 Python 的 wheel (built from source) {wheel.name}")
    return wheel


def _linux_cpu_torch(spec: str, out: Path, target: Target, log) -> None:
    """PyPI's Linux torch is the CUDA build: put the CPU build in the folder first (as ``make`` does)."""
    for extra in (["--no-index"], ["--index-url", TORCH_CPU_INDEX]):
        done = _pip(["download", "--no-deps", "-d", str(out), *target.pip_flags(), *extra, spec], log)
        wheel = _wheels(out).get("torch")
        if done.returncode == 0 and wheel and "+cpu" in wheel.name:
            log(f"  torch: CPU 版 (CPU build) {wheel.name}")
            return
        if wheel and "+cpu" not in wheel.name:
            wheel.unlink()
    raise WheelhouseError("找不到 Linux 的 CPU 版 torch (no CPU build of torch found)：本机的 find-links 里没有，"
                          f"也连不上 {TORCH_CPU_INDEX}。联网后重试，或把 CPU 版的 torch wheel 放进 --out 文件夹。")


def fill(out: Path, target: Target, root: Path = ROOT, log=print) -> list[Path]:
    """Download (and, for source-only packages, build) the closure of requirements.txt for the target."""
    out.mkdir(parents=True, exist_ok=True)
    wanted: dict[str, _Wanted] = {}
    queue: list[Requirement] = list(root_requirements(root))
    done_meta: dict[str, tuple[Version, frozenset]] = {}
    log(f"目标 (target)：{target.os} {target.machine}，Python {target.python} → {out}")
    rounds = 0
    while queue:
        rounds += 1
        if rounds > 50:
            raise WheelhouseError("依赖关系展开了 50 轮还没有结束 (dependency closure did not converge)。")
        batch: dict[str, str] = {}
        for req in queue:
            name = canonicalize_name(req.name)
            item = wanted.setdefault(name, _Wanted(url_name=req.name))
            item.spec &= req.specifier
            item.extras |= set(req.extras)
            have = _wheels(out).get(name)
            if have is not None:
                _, version, _, _ = parse_wheel_filename(have.name)
                if item.spec.contains(version, prereleases=True):
                    continue
                have.unlink()  # a stricter specifier arrived: fetch again
            batch[name] = f"{item.url_name}{item.spec}"
        queue = []
        if target.os == "linux" and "torch" in batch:
            _linux_cpu_torch(batch.pop("torch"), out, target, log)
        while batch:
            done = _pip(["download", "--no-deps", "-d", str(out), *target.pip_flags(),
                         "--find-links", str(out), *batch.values()], log)
            if done.returncode == 0:
                break
            missing = _missing_name(done.stderr)
            if missing is None or missing not in batch:
                raise WheelhouseError(f"pip download 失败 (failed)：\n{done.stderr.strip()[-1200:]}")
            _build_pure_wheel(batch.pop(missing), out, target, log)
        # read what is now in the folder and queue what the target needs next
        for name, path in _wheels(out).items():
            if name not in wanted:
                continue
            _, version, reqs = wheel_requirements(path)
            key = (version, frozenset(wanted[name].extras))
            if done_meta.get(name) == key:
                continue
            done_meta[name] = key
            queue += [r for r in reqs if applies(r, target, wanted[name].extras)]
    wheels = sorted(_wheels(out).values())
    for path in out.glob("*.whl"):  # files of packages nothing asks for any more
        if path not in wheels:
            path.unlink()
    problems = check_folder(out, target, root)
    if problems:
        raise WheelhouseError("文件夹不完整 (folder incomplete)：\n" + "\n".join(problems))
    size = sum(p.stat().st_size for p in wheels) / 2**20
    log(f"完成 (done)：{len(wheels)} 个 wheel，共 {size:.0f} MB，在 {out}")
    return wheels


def check_folder(folder: Path, target: Target, root: Path = ROOT) -> list[str]:
    """What an offline install on the target would miss: a wheel that does not fit, an unmet requirement."""
    problems = []
    tags = target.tags()
    wheels = _wheels(folder)
    versions = {}
    for name, path in wheels.items():
        _, version, _, wheel_tags = parse_wheel_filename(path.name)
        versions[name] = version
        if not wheel_tags & tags:
            problems.append(f"{path.name}：不适用于 (does not fit) {target.os} / Python {target.python}")

    def needs(req: Requirement, who: str) -> None:
        name = canonicalize_name(req.name)
        if name not in versions:
            problems.append(f"缺少 (missing) {req}（{who} 需要）")
        elif not req.specifier.contains(versions[name], prereleases=True):
            problems.append(f"{name} {versions[name]} 不满足 (does not satisfy) {req}（{who} 需要）")

    extras: dict[str, set[str]] = {}
    for req in root_requirements(root):
        needs(req, "requirements.txt")
        extras.setdefault(canonicalize_name(req.name), set()).update(req.extras)
    for name, path in wheels.items():
        _, _, reqs = wheel_requirements(path)
        for req in reqs:
            if applies(req, target, extras.get(name, set())):
                needs(req, name)
    return problems


def main(argv=None) -> int:
    here = this_machine()
    parser = argparse.ArgumentParser(
        prog="python -m helpers.tools.wheelhouse",
        description="为离线教室准备 wheel 文件夹 (fill a wheel folder for offline installs)")
    parser.add_argument("--os", choices=OSES, default=here.os, help=f"目标系统 (target OS)，默认本机：{here.os}")
    parser.add_argument("--python", default=here.python, help=f"目标 Python 版本，如 3.11（默认本机：{here.python}）")
    parser.add_argument("--machine", default=None,
                        help="目标 CPU：x86_64（默认）或 arm64（Apple 芯片的 Mac、ARM 的 Linux）")
    parser.add_argument("--out", type=Path, default=Path("wheels"), help="输出文件夹（默认 wheels/）")
    args = parser.parse_args(argv)
    if not re.fullmatch(r"3\.\d{1,2}", args.python):
        parser.error(f"--python 应该写成 3.11 这样的版本号 (major.minor)，而不是 {args.python!r}")
    machine = args.machine or (here.machine if args.os == here.os else ("arm64" if args.os == "macos" else "x86_64"))
    try:
        fill(args.out, Target(args.os, args.python, machine))
    except WheelhouseError as err:
        print(err, file=sys.stderr)
        return 1
    print("在离线的电脑上安装 (offline install)：见 README 的“离线教室”一节。")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
