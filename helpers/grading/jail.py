"""Where graded code runs: a private folder per notebook, resource limits, another user, bubblewrap.

What each graded process (a notebook's kernel, a sandbox child) gets:

- **a private folder** written from a snapshot the grader took in memory before the first notebook ran
  (``Snapshot``): the helpers package *without* ``helpers.exercises``' checkers and reference answers
  (a stand-in package whose ``check`` records and whose ``EXERCISES`` withholds every solution; the
  reveal cells' ``helpers.exercises.reveals`` stays) and without the grader itself (only the parts a
  graded process runs: ``grading.record``, ``grading.sandbox``, ``grading.guard``), its own
  ``TMPDIR`` / ``HOME`` / caches, and ``sitecustomize.py`` = ``grading.guard`` (the audit-hook tripwire).
  What a notebook changes there is thrown away with the folder;
- **limits** (``grading.launch``): memory (address space), file size, open files, processes (when it
  runs as its own user), no core dumps; its own session, so the whole process group is killed at
  the end, and on Linux every process it left behind is found and killed as well (``sweep``);
- **on Linux as root**: the user ``nobody``; **with ``bwrap`` installed** (Debian: bubblewrap): a
  mount namespace that shows only the system, the Python installation and the private folder (read-only
  except the private folder), and no network, PIDs or IPC of the host.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # helpers/
ROOT = PACKAGE.parent
HERE = Path(__file__).resolve().parent
KEEP_IN_EXERCISES = ("reveals.py",)  # what the reveal cells of a notebook import; no checker, no answer key
KEEP_IN_GRADING = ("__init__.py", "record.py", "sandbox.py", "guard.py")  # what runs inside a graded process
LIMITS = {"as": 4 << 30, "fsize": 256 << 20, "nofile": 1024, "core": 0}
NPROC = 512  # threads count too; only set when the process has a user of its own

STUB = '''"""Stand-in for helpers.exercises while grading: check() records the answer, the answer key is absent."""
from helpers.grading.record import WithheldExercise as _W, recorder_check as check

EXERCISES = {{i: _W(i, nb, title) for i, nb, title in {table!r}}}


def reset_hints(exercise_id=None):
    return None
'''


class Snapshot:
    """The files a graded process may see, read once into memory (so no notebook can change them for the next)."""

    def __init__(self):
        from helpers.exercises import EXERCISES

        self.files: dict[str, bytes] = {}
        for path in sorted(PACKAGE.rglob("*")):
            rel = path.relative_to(ROOT)
            if not path.is_file() or path.is_symlink() or "__pycache__" in rel.parts or path.suffix == ".pyc" \
                    or ".cache" in rel.parts:  # the corpus's on-disk cache: each copy regenerates or reads its own
                continue
            if rel.parts[:2] == ("helpers", "exercises") and (len(rel.parts) > 3 or rel.name not in KEEP_IN_EXERCISES):
                continue
            if rel.parts[:2] == ("helpers", "grading") and (len(rel.parts) > 3 or rel.name not in KEEP_IN_GRADING):
                continue
            self.files[rel.as_posix()] = path.read_bytes()
        table = [(i, ex.notebook, ex.title) for i, ex in EXERCISES.items()]
        self.files["helpers/exercises/__init__.py"] = STUB.format(table=table).encode()
        for module in sorted(_exercise_modules()):
            public = getattr(sys.modules[module], "GRADING_PUBLIC", ())
            if public:
                text = "".join(f"{name} = {getattr(sys.modules[module], name)!r}\n" for name in public)
                self.files[module.replace(".", "/") + ".py"] = text.encode()
        self.guard = (HERE / "guard.py").read_bytes()
        self.child = (HERE / "sandbox.py").read_bytes()

    def write(self, lib: Path, code_only: bool = False, traps: tuple = ()) -> None:
        """The copy in ``lib``; ``traps`` ("module:attribute") are replaced in the source by stand-ins that refuse."""
        by_file: dict[str, list[str]] = {}
        for spec in traps:
            module, attr = spec.split(":")
            rel = module.replace(".", "/") + ".py"
            by_file.setdefault(rel if rel in self.files else module.replace(".", "/") + "/__init__.py", []).append(attr)
        for rel, data in self.files.items():
            # code only: the modules, and the corpus's data files that its modules read when imported (corpus 4.0)
            if code_only and not (rel.endswith(".py") or rel.startswith("helpers/corpus/data/")):
                continue
            if rel in by_file:
                data = withhold(data.decode("utf-8"), rel[:-3].replace("/", ".").removesuffix(".__init__"),
                                by_file[rel]).encode("utf-8")
            target = lib / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        (lib / "sitecustomize.py").write_bytes(self.guard)


TRAP_BODY = (
    "    import builtins\n"
    "    builtins.__dict__.setdefault('_grading_used', set()).add({spec!r})\n"
    "    raise RuntimeError('评分时不能调用 helpers 里现成的 {attr} (the library implementation is withheld while "
    "grading)：请交你自己写的实现。')\n"
)


def withhold(source: str, module: str, names: list[str]) -> str:
    """``source`` with the top-level functions / classes ``names`` replaced by stand-ins that refuse to run."""
    import ast

    lines = source.splitlines(True)
    nodes = [n for n in ast.parse(source).body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in names]
    for node in sorted(nodes, key=lambda n: n.lineno, reverse=True):
        start = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
        body = TRAP_BODY.format(spec=f"{module}:{node.name}", attr=node.name)
        if isinstance(node, ast.ClassDef):
            text = f"class {node.name}:\n    def __init__(self, *args, **kwargs):\n" + body.replace("\n    ", "\n        ").replace("    import", "        import", 1)
        else:
            text = f"def {node.name}(*args, **kwargs):\n" + body
        lines[start:node.end_lineno] = [text]
    return "".join(lines)


def _exercise_modules() -> set[str]:
    return {name for name in sys.modules if name.startswith("helpers.exercises.") and name.count(".") == 2}


def _runs(cmd: list[str], user) -> bool:
    kwargs = {"user": user[0], "group": user[1], "extra_groups": []} if user else {}
    try:
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60, cwd="/", **kwargs)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def _probe_bwrap(user, extra: list[str]) -> str | None:
    exe = shutil.which("bwrap")
    if not exe or not sys.platform.startswith("linux"):
        return None
    probe = Path(__import__("tempfile").mkdtemp(prefix="grade-probe-"))
    try:
        os.chmod(probe, 0o777)
        ok = _runs([exe, *extra, *bwrap_args(probe), "--", sys.executable, "-c", "pass"], user)
    finally:
        shutil.rmtree(probe, ignore_errors=True)
    return exe if ok else None


def bwrap_args(work: Path) -> list[str]:
    """Mounts: the system and the Python installation read-only, ``work`` writable, nothing else of the host."""
    args = ["--unshare-all", "--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    seen = {"/usr"}
    for root in (sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))):
        root = os.path.realpath(root)
        if root not in seen and not any(root.startswith(s + "/") for s in seen):
            seen.add(root)
            args += ["--ro-bind", root, root]
    for path in sys.path:  # site-packages outside the prefixes (e.g. a conda env's extra paths)
        if path.endswith("site-packages") and os.path.isdir(path) and not any(os.path.realpath(path).startswith(s + "/") for s in seen):
            seen.add(os.path.realpath(path))
            args += ["--ro-bind", os.path.realpath(path), os.path.realpath(path)]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--bind", str(work), str(work), "--chdir", str(work)]
    return args


class Isolation:
    """What this machine allows, decided once per grading run."""

    def __init__(self, *, memory: int = LIMITS["as"], use_bwrap: bool = True):
        self.posix = os.name == "posix"
        self.user, self.notes, self.bwrap_extra = None, [], []
        if self.posix and sys.platform.startswith("linux") and os.geteuid() == 0:
            import pwd

            try:
                entry = pwd.getpwnam("nobody")
                user = (entry.pw_uid, entry.pw_gid)
            except KeyError:
                user = None
            if user and _runs([sys.executable, "-c", "pass"], user):
                self.user = user
            elif user:  # e.g. Python installed under /root (mode 0700)
                self.notes.append("nobody 无法运行这个 Python (nobody cannot run this Python)")
                self.bwrap_extra = ["--unshare-user", "--uid", str(user[0]), "--gid", str(user[1])]
        self.bwrap = _probe_bwrap(self.user, self.bwrap_extra) if use_bwrap and self.posix else None
        self.limits = dict(LIMITS, **{"as": memory})
        if self.user:
            self.limits["nproc"] = NPROC
        self.base = Path(os.path.realpath(__import__("tempfile").mkdtemp(prefix="grade-")))
        os.chmod(self.base, 0o711)  # the sandbox user may pass through, not list
        self.launcher = (HERE / "launch.py").read_bytes()  # read now: later edits of the file do not count
        self.snapshot = Snapshot()

    def describe(self) -> str:
        parts = ["私有文件夹 (private folder)", "资源限制 (rlimits)" if self.posix else "无资源限制 (no rlimits on Windows)"]
        if self.user:
            parts.append("用户 nobody (unprivileged user)")
        parts.append("bubblewrap" if self.bwrap else "没有 bubblewrap (bwrap not used)")
        if self.posix and os.geteuid() == 0 and not self.user and not self.bwrap:
            parts.append("警告：学生代码以 root 运行 (warning: student code runs as root)")
        parts += self.notes
        return "隔离 (isolation)：" + "，".join(parts)

    def private(self, name: str) -> Path:
        work = self.base / name
        shutil.rmtree(work, ignore_errors=True)
        for sub in ("lib", "tmp", "home"):
            (work / sub).mkdir(parents=True)
        return work

    def hand_over(self, work: Path) -> None:
        """Give the private folder to the sandbox user (root only); the config files stay the grader's."""
        if not self.user:
            return
        for dirpath, _dirnames, filenames in os.walk(work):
            os.chown(dirpath, *self.user)
            for name in filenames:
                os.chown(os.path.join(dirpath, name), *self.user)

    def env(self, work: Path, guard: dict, extra: dict | None = None) -> dict:
        home, tmp = str(work / "home"), str(work / "tmp")
        env = {"PATH": os.environ.get("PATH", os.defpath), "HOME": home, "USERPROFILE": home, "TMPDIR": tmp,
               "TEMP": tmp, "TMP": tmp, "PYTHONPATH": str(work / "lib"), "PYTHONDONTWRITEBYTECODE": "1",
               "PYTHONNOUSERSITE": "1", "PYTHONIOENCODING": "utf-8", "MPLBACKEND": "Agg",
               "MPLCONFIGDIR": os.path.join(home, "mpl"), "IPYTHONDIR": os.path.join(home, "ipython"),
               "JUPYTER_CONFIG_DIR": os.path.join(home, "jupyter"), "JUPYTER_DATA_DIR": os.path.join(home, "jupyter"),
               "JUPYTER_RUNTIME_DIR": os.path.join(home, "jupyter"), "XDG_CACHE_HOME": os.path.join(home, "cache"),
               "TORCH_HOME": os.path.join(home, "torch"), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               "GRADE_GUARD": json.dumps(guard)}
        for key in ("SYSTEMROOT", "COMSPEC", "WINDIR"):  # Windows needs these to start Python at all
            if key in os.environ:
                env[key] = os.environ[key]
        env.update(extra or {})
        return env

    def prefix(self, work: Path, env: dict, name: str = "launch") -> list[str]:
        """The command that starts a graded process in ``work``: the launcher with its config (POSIX; on
        Windows nothing: the process is started directly with ``env``)."""
        if not self.posix:
            return []
        config = {"limits": self.limits if self.posix else {}, "user": self.user, "env": env,
                  "wrap": ([self.bwrap, *self.bwrap_extra, *bwrap_args(work), "--"] if self.bwrap else None)}
        launcher = work.parent / f"{work.name}-{name}.py"  # outside ``work``: not the student's to edit
        config_path = work.parent / f"{work.name}-{name}.json"
        launcher.write_bytes(self.launcher)
        config_path.write_text(json.dumps(config), encoding="utf-8")
        for path in (launcher, config_path):
            os.chmod(path, 0o644)
        return [sys.executable, str(launcher), str(config_path), "--"]

    def close(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)


# --- leftovers ------------------------------------------------------------------------------------


def become_subreaper() -> bool:
    """Linux: orphans of graded processes are re-parented to the grader, so ``sweep`` can find them."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def _processes() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, real uid), from /proc (Linux); empty elsewhere."""
    table = {}
    for entry in os.scandir("/proc") if os.path.isdir("/proc") else ():
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status", encoding="ascii", errors="replace") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
            table[int(entry.name)] = (int(fields["PPid"]), int(fields["Uid"].split()[0]))
        except (OSError, KeyError, ValueError):
            continue
    return table


def _reap(pids, wait: float = 2.0) -> None:
    """Collect the exit status of killed children (orphans re-parented to the grader), so no zombie stays."""
    left, deadline = set(pids), time.monotonic() + wait
    while left and time.monotonic() < deadline:
        for pid in list(left):
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    left.discard(pid)
            except (ChildProcessError, OSError):  # not our child, or collected already
                left.discard(pid)
        if left:
            time.sleep(0.02)


def snapshot_processes() -> set[int]:
    return set(_processes())


def sweep(before: set[int], pgid: int | None, user) -> int:
    """Kill the process group ``pgid`` and every process started since ``before`` that descends from the
    grader or runs as the sandbox user; return how many were killed."""
    import signal

    if pgid and hasattr(os, "killpg"):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except OSError:
            pass
    killed = 0
    for _ in range(5):  # a process may fork while we look: look again until nothing is left
        table = _processes()
        mine = {os.getpid()}
        changed = True
        while changed:
            changed = False
            for pid, (ppid, _uid) in table.items():
                if ppid in mine and pid not in mine and pid not in before:
                    mine.add(pid)
                    changed = True
        targets = [pid for pid, (_ppid, uid) in table.items() if pid not in before and pid != os.getpid()
                   and (pid in mine or (user and uid == user[0]))]
        if not targets:
            break
        for pid in targets:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except OSError:
                pass
        _reap(targets)
    return killed
