"""Where graded code runs: a private folder per notebook, resource limits, another user, bubblewrap.

What each graded process (a notebook's kernel, a sandbox child) gets:

- **a private folder** written from a snapshot the grader took in memory before the first notebook ran
  (``Snapshot``): the helpers package *without* ``helpers.exercises``' checkers and reference answers
  (a stand-in package whose ``check`` records and whose ``EXERCISES`` withholds every solution; the
  reveal cells' ``helpers.exercises.reveals`` stays) and without the grader itself (only the parts a
  graded process runs: ``grading.record``, ``grading.sandbox``, ``grading.guard``), its own
  ``TMPDIR`` / ``HOME`` / caches, and ``sitecustomize.py`` = ``grading.guard`` (the audit-hook guard).
  What a notebook changes there is thrown away with the folder;
- **limits** (``grading.launch`` / ``DROP``): memory (address space), file size, open files, processes
  (when it runs as its own user), no core dumps; its own session, so the whole process group is
  killed at the end, and on Linux every process it left behind is found and killed as well (``sweep``);
- **with ``bwrap`` installed** (Debian: bubblewrap), wherever Python and the venv live: a mount
  namespace that shows only ``/usr``, a few files of ``/etc``, this Python and its site-packages
  (read-only; the files that name the repository covered by an empty one) and the private folder;
  a fresh ``/tmp``, ``/dev/shm`` and ``/proc`` (its own PID namespace: the grader is not there), no
  network; killed with the grader (``--die-with-parent``). As root, bubblewrap runs without a user
  namespace and the first step inside drops to the real ``nobody``;
- **without bubblewrap, on Linux as root**: the user ``nobody`` when it can run this Python, else root
  with a warning; **otherwise** the teacher's own user. ``Isolation.level`` / ``summary()`` say which;
  the audit-hook guard (``grading.guard``) is a guard against accidents, never counted as isolation.
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


def _corpus_cache() -> Path | None:
    """The corpus's cache file for the code being copied, made now if missing (once per batch).

    Every graded notebook that loads the corpus then reads it (about 2 s) instead of generating the
    splits again in its copy (16 s on an idle 2-core machine, about 45 s on a busy one). It is the
    teacher's file, keyed by a digest of the corpus's code and data (``helpers.corpus._source_key``),
    copied like the code: a student's notebook cannot change it for the next one.
    """
    from helpers import corpus

    try:
        corpus._generate(0)
    except Exception:  # noqa: BLE001 - without a cache every copy generates its own, as before
        return None
    path = corpus.CACHE_DIR / f"corpus-s0-{corpus._source_key(0)}.json.gz"
    return path.resolve() if path.is_file() and not path.is_symlink() else None


class Snapshot:
    """The files a graded process may see, read once into memory (so no notebook can change them for the next)."""

    def __init__(self):
        from helpers.exercises import EXERCISES

        self.files: dict[str, bytes] = {}
        corpus_cache = _corpus_cache()
        for path in sorted(PACKAGE.rglob("*")):
            rel = path.relative_to(ROOT)
            if not path.is_file() or path.is_symlink() or "__pycache__" in rel.parts or path.suffix == ".pyc" \
                    or (".cache" in rel.parts and path != corpus_cache):
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


def _runs(cmd: list[str], user=None, env: dict | None = None) -> bool:
    kwargs = {"user": user[0], "group": user[1], "extra_groups": []} if user else {}
    try:
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60, cwd="/",
                              env=env, **kwargs)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


# What of the host's /etc a graded process sees: the dynamic loader's cache, the alternatives that
# /usr/bin's links point to, fonts, time zone, TLS roots. Not passwd/shadow/sudoers or anything else:
# the accounts it sees are the grader's own two-line files (``Isolation``).
ETC_KEEP = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "fonts", "localtime", "mime.types",
            "ssl", "ca-certificates", "nsswitch.conf", "host.conf")
SYSTEM_TOPS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


def python_roots() -> list[str]:
    """The folders of this Python a graded process needs: the interpreter's prefixes and every
    site-packages on ``sys.path`` (a venv's, a conda env's extra ones), without the ones inside /usr."""
    roots: list[str] = []
    candidates = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
                  os.path.dirname(os.path.dirname(os.path.realpath(sys.executable))),
                  os.path.dirname(os.path.dirname(os.path.abspath(sys.executable)))]
    candidates += [p for p in sys.path if p.endswith(("site-packages", "dist-packages")) and os.path.isdir(p)]
    for path in candidates:
        for root in {os.path.abspath(path), os.path.realpath(path)}:
            if root in ("/", "/usr") or root.startswith("/usr/") or not os.path.isdir(root):
                continue
            if not any(root == r or root.startswith(r + "/") for r in roots):
                roots = [r for r in roots if not r.startswith(root + "/")] + [root]
    return sorted(roots)


def repo_pointers(roots, repo: Path = ROOT) -> list[str]:
    """Files in the site-packages under ``roots`` that say where the repository is: the editable
    install's ``.pth`` and finder, ``.egg-link`` files, a ``direct_url.json`` naming the checkout.
    Inside bubblewrap each is covered by an empty file."""
    needle = str(repo).encode()
    found = []
    for root in roots:
        for site in [Path(root)] if root.endswith("-packages") else Path(root).glob("lib*/python*/site-packages"):
            try:
                entries = list(os.scandir(site))
            except OSError:
                continue
            for entry in entries:
                paths = []
                if entry.name.startswith("__editable__") or entry.name.endswith((".pth", ".egg-link")):
                    paths.append(entry.path)
                elif entry.name.endswith((".dist-info", ".egg-info")) and entry.is_dir():
                    paths += [os.path.join(entry.path, n) for n in ("direct_url.json", "RECORD", "SOURCES.txt")]
                for path in paths:
                    try:
                        if entry.name.startswith("__editable__") or needle in Path(path).read_bytes():
                            found.append(path)
                    except OSError:
                        continue
    return sorted(set(found))


def remapped_roots(repo: Path = ROOT) -> dict[str, str]:
    """Python folders inside the repository (a ``.venv`` in the checkout), and where a jailed process sees
    them instead: at a neutral path, so that ``sys.prefix`` does not say where the repository is."""
    inside = [r for r in python_roots() if r == str(repo) or r.startswith(str(repo) + "/")]
    return {root: f"/opt/grading-python{i}" for i, root in enumerate(inside)}


def in_jail(path: str, remap: dict[str, str]) -> str:
    """``path`` as a jailed process sees it (``remapped_roots``)."""
    for host, jailed in remap.items():
        if path == host or path.startswith(host + "/"):
            return jailed + path[len(host):]
    return path


def bwrap_args(work: Path, *, as_root: bool, extra_ro=(), empty: Path | None = None) -> list[str]:
    """Mounts: the system and this Python read-only, ``work`` writable, nothing else of the host.

    Order matters: bubblewrap applies the mounts one after the other, so the fresh ``/tmp`` comes first
    and a Python or venv under ``/tmp`` is mounted on top of it (the other way round it is hidden).
    As root no user namespace is made (``--unshare-user`` would map the sandbox's user to root outside,
    who owns most files); the launcher inside drops to ``nobody`` itself. Without root bubblewrap makes one.
    """
    args = ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
            "--die-with-parent", "--new-session"]
    if not as_root:
        args.append("--unshare-user")
    args += ["--perms", "1777", "--tmpfs", "/tmp", "--ro-bind", "/usr", "/usr"]
    for top in SYSTEM_TOPS:
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    args += ["--perms", "0755", "--dir", "/etc"]
    for name in ETC_KEEP:
        if os.path.exists(f"/etc/{name}"):
            args += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    made = {"/", "/tmp", "/etc", "/usr"}
    roots, remap = python_roots(), remapped_roots()
    for host in [*roots, str(work)]:
        root = in_jail(host, remap)
        parents = []
        parent = os.path.dirname(root)
        while parent not in made and parent != "/":
            parents.append(parent)
            parent = os.path.dirname(parent)
        for folder in reversed(parents):  # parents made by bubblewrap would copy the host's modes (e.g. /root: 0700)
            args += ["--perms", "0755", "--dir", folder]
            made.add(folder)
        if host != str(work):
            args += ["--ro-bind", host, root]
    for path in repo_pointers(roots) if empty else ():
        args += ["--ro-bind", str(empty), in_jail(path, remap)]
    for source, target in extra_ro:
        args += ["--ro-bind", str(source), str(target)]
    args += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--tmpfs", "/dev/shm",
             "--bind", str(work), str(work), "--chdir", str(work)]
    return args


# The first step inside bubblewrap (``python -I -S -c DROP rules -- COMMAND``): limits, then the user
# ``nobody`` when bubblewrap was started as root, then COMMAND with the environment bubblewrap passed on.
DROP = (
    "import json,os,sys\n"
    "rules=json.loads(sys.argv[1]);cmd=sys.argv[3:]\n"
    "os.closerange(3,4096)\n"
    "import resource\n"
    "for n,v in rules['limits'].items():\n"
    " w=getattr(resource,'RLIMIT_'+n.upper(),None)\n"
    " if w is not None and v is not None:\n"
    "  h=resource.getrlimit(w)[1];v=int(v) if h==resource.RLIM_INFINITY else min(int(v),h)\n"
    "  resource.setrlimit(w,(v,v))\n"
    "u=rules.get('user')\n"
    "if u:\n"
    " for p in rules.get('share',[]):\n"
    "  os.chown(p,u[0],u[1])\n"
    " os.setgroups([]);os.setgid(u[1]);os.setuid(u[0])\n"
    " if os.getuid()!=u[0] or os.geteuid()!=u[0] or os.getegid()!=u[1]:raise SystemExit('could not drop privileges')\n"
    "os.execvpe(cmd[0],cmd,os.environ)\n"
)

LEVELS = {
    "bwrap": "bubblewrap 沙箱 (sandbox)",
    "user": "只换了用户，没有沙箱 (another user, no sandbox)",
    "none": "没有操作系统隔离 (no OS isolation)",
}


class Isolation:
    """What this machine allows, decided once per grading run.

    ``level``: "bwrap" (bubblewrap: a mount, PID, network and IPC namespace of its own; as root also the
    user ``nobody``), "user" (Linux as root without bubblewrap: only the user ``nobody``) or "none"
    (the teacher's own user: only the limits and the audit-hook guard, which is a guard against
    accidents, not isolation). ``summary()`` says which, in words, for the terminal and the reports.
    """

    def __init__(self, *, memory: int = LIMITS["as"], use_bwrap: bool = True):
        self.posix = os.name == "posix"
        self.root = self.posix and hasattr(os, "geteuid") and os.geteuid() == 0
        self.user, self.notes, self.bwrap = None, [], None
        self.nobody = None
        if self.root and sys.platform.startswith("linux"):
            import pwd

            try:
                entry = pwd.getpwnam("nobody")
                self.nobody = (entry.pw_uid, entry.pw_gid)
            except KeyError:
                self.notes.append("没有用户 nobody (no user nobody)")
        self.limits = dict(LIMITS, **{"as": memory})
        self.base = Path(os.path.realpath(__import__("tempfile").mkdtemp(prefix="grade-")))
        os.chmod(self.base, 0o711)  # the sandbox user may pass through, not list
        self.grader_dir = self.base / "grader"  # launchers, configs, logs: never the student's
        self.grader_dir.mkdir(mode=0o700)
        if self.nobody:
            (self.grader_dir / "passwd").write_text(f"root:x:0:0::/:/bin/sh\nnobody:x:{self.nobody[0]}:{self.nobody[1]}::/:/bin/sh\n")
            (self.grader_dir / "group").write_text(f"root:x:0:\nnogroup:x:{self.nobody[1]}:\n")
        (self.grader_dir / "empty").write_bytes(b"")  # what covers the files that name the repository
        for name in ("passwd", "group", "empty"):
            if (self.grader_dir / name).exists():
                os.chmod(self.grader_dir / name, 0o644)
        self.launcher = (HERE / "launch.py").read_bytes()  # read now: later edits of the file do not count
        exe = shutil.which("bwrap") if use_bwrap and sys.platform.startswith("linux") else None
        if exe:
            self.bwrap = exe
            if not self._probe():
                self.bwrap = None
                self.notes.append("bubblewrap 已安装但无法使用 (bwrap installed but unusable)")
        if not self.bwrap and self.nobody and _runs([sys.executable, "-c", "import site"], self.nobody):
            self.user = self.nobody
        elif self.bwrap and self.nobody:
            self.user = self.nobody
        elif self.nobody:  # e.g. Python installed under /root (mode 0700)
            self.notes.append("nobody 无法运行这个 Python (nobody cannot run this Python)")
        if self.user:
            self.limits["nproc"] = NPROC
        self.level = "bwrap" if self.bwrap else "user" if self.user else "none"
        self.snapshot = Snapshot()

    def _probe(self) -> bool:
        """Whether a jailed process starts here (bubblewrap can be installed and still refused, e.g. in a
        container without user namespaces): the real chain, as ``nobody`` when root, importing ``site``."""
        probe = self.base / "probe"
        probe.mkdir()
        if self.nobody:
            os.chown(probe, *self.nobody)
        user, self.user = self.user, self.nobody
        try:
            cmd = self.prefix(probe, {"PATH": os.defpath, "LANG": "C.UTF-8"}, "probe")
            return _runs(cmd + [sys.executable, "-c", "import os, site; os.getuid() or os.geteuid() or exit(3)"
                                if self.nobody else "import site"])
        finally:
            self.user = user
            shutil.rmtree(probe, ignore_errors=True)

    def describe(self) -> str:
        """One line for the terminal at the start of a run."""
        return "隔离 (isolation)：" + self.summary()

    def summary(self) -> str:
        """What graded code gets here, in words (the grader prints it; the reports can carry it)."""
        parts = [LEVELS[self.level], "私有文件夹 (private folder)",
                 "资源限制 (rlimits)" if self.posix else "无资源限制 (no rlimits on Windows)"]
        if self.user:
            parts.append("用户 nobody (unprivileged user)")
        parts += self.notes
        if self.level != "bwrap":
            if self.root and not self.user:
                parts.append("警告：学生代码以 root 运行 (warning: student code runs as root)")
            elif not self.user:
                parts.append("学生代码以你的用户身份运行，能读写你能读写的文件 (student code runs as your user)")
            parts.append("审计钩子只防意外，不是隔离 (the audit hook is a guard against accidents, not isolation)；"
                         "批改陌生人的代码请装 bubblewrap 或用虚拟机 (install bubblewrap or use a VM)")
        return "，".join(parts)

    def private(self, name: str) -> Path:
        """A new private folder with an unpredictable name (so no notebook can prepare the next one's)."""
        import tempfile

        work = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=self.base))
        for sub in ("lib", "tmp", "home"):
            (work / sub).mkdir()
        return work

    def hand_over(self, work: Path) -> None:
        """Give the private folder to the sandbox user (root only)."""
        if not self.user:
            return
        for dirpath, _dirnames, filenames in os.walk(work):
            os.chown(dirpath, *self.user)
            for name in filenames:
                os.chown(os.path.join(dirpath, name), *self.user)

    def guard_rules(self, work: Path, deny=()) -> dict:
        """The audit hook's rules. In bubblewrap the host's folders are not there at all, so the rules
        name none of them (nothing in the process's environment says where the repository is)."""
        if self.bwrap:
            return {"deny": [], "write": [str(work)]}
        return {"deny": [str(ROOT / "helpers"), str(ROOT / "notebooks"), str(self.grader_dir), f"/proc/{os.getpid()}",
                         *map(str, deny)], "write": [str(work)]}

    def env(self, work: Path, guard: dict, extra: dict | None = None) -> dict:
        home, tmp = str(work / "home"), str(work / "tmp")
        env = {"PATH": os.environ.get("PATH", os.defpath), "HOME": home, "USERPROFILE": home, "TMPDIR": tmp,
               "TEMP": tmp, "TMP": tmp, "PYTHONPATH": str(work / "lib"), "PYTHONDONTWRITEBYTECODE": "1",
               "PYTHONNOUSERSITE": "1", "PYTHONIOENCODING": "utf-8", "MPLBACKEND": "Agg",
               "MPLCONFIGDIR": os.path.join(home, "mpl"), "IPYTHONDIR": os.path.join(home, "ipython"),
               "JUPYTER_CONFIG_DIR": os.path.join(home, "jupyter"), "JUPYTER_DATA_DIR": os.path.join(home, "jupyter"),
               "JUPYTER_RUNTIME_DIR": os.path.join(home, "jupyter"), "XDG_CACHE_HOME": os.path.join(home, "cache"),
               "TORCH_HOME": os.path.join(home, "torch"), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               # one thread (issue 33): what the course's notebooks use, and what a busy machine grades fastest
               "NB_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
               "GRADE_GUARD": json.dumps(guard)}
        if self.bwrap:  # outside the sandbox's own PATH there is nothing to find
            env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
        for key in ("SYSTEMROOT", "COMSPEC", "WINDIR"):  # Windows needs these to start Python at all
            if key in os.environ:
                env[key] = os.environ[key]
        env.update(extra or {})
        return env

    def prefix(self, work: Path, env: dict, name: str = "launch") -> list[str]:
        """The command that starts a graded process in ``work``: the launcher with its config (POSIX; on
        Windows nothing: the process is started directly with ``env``). Launcher and config live in the
        grader's own folder (mode 0700): the student can neither read nor change them."""
        if not self.posix:
            return []
        wrap = None
        if self.bwrap:
            extra = [(self.grader_dir / "passwd", "/etc/passwd"), (self.grader_dir / "group", "/etc/group")] \
                if self.nobody else []
            wrap = [self.bwrap, *bwrap_args(work, as_root=self.root, extra_ro=extra, empty=self.grader_dir / "empty"), "--",
                    in_jail(sys.executable, remapped_roots()), "-I", "-S", "-c", DROP]
        config = {"limits": self.limits, "user": self.user, "env": env, "wrap": wrap,
                  "remap": remapped_roots() if wrap else {}}
        stem = f"{work.name}-{name}"
        launcher, config_path = self.grader_dir / f"{stem}.py", self.grader_dir / f"{stem}.json"
        launcher.write_bytes(self.launcher)
        config_path.write_text(json.dumps(config), encoding="utf-8")
        for path in (launcher, config_path):
            os.chmod(path, 0o600)
        return [sys.executable, str(launcher), str(config_path), "--"]

    def close(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)


def isolation_summary(use_bwrap: bool = True) -> str:
    """What graded code would get on this machine, in words (starts a probe; for reports and docs)."""
    jail = Isolation(use_bwrap=use_bwrap)
    try:
        return jail.summary()
    finally:
        jail.close()


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
