"""The guard every graded process starts with: an audit hook (PEP 578) that keeps student code away
from the teacher's files. The grader writes this file as ``sitecustomize.py`` into each private
folder, so Python runs it before the kernel or a sandbox child imports anything else.

Rules, read from the environment variable ``GRADE_GUARD`` (JSON, removed after reading):

- ``deny``: folders nothing may open or list (the real helpers package, the course notebooks, the
  submissions, the reports);
- ``write``: the only folders a file may be written, created, renamed or removed in (the private one);
- ``no_exec``: starting programs (``subprocess``, ``os.system``, ``os.exec*``, ``posix_spawn``) and
  calling libc's process and file functions through ``ctypes`` is refused;
- ``lock_after_setup``: a sandbox child sets ``_guard.locked = True`` after it has re-created the
  student's function; from then on no ``.py`` file may be opened and no code compiled, so the
  function cannot rebuild the library's implementation at call time.

An audit hook is a tripwire, not a wall (C code and ctypes tricks can get past it); the walls are
the operating system's: another user and bubblewrap (see ``grading.jail``). Standard library only.
"""

import json
import os
import sys

_EXEC_EVENTS = {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "pty.spawn",
                "os.startfile", "_winapi.CreateProcess"}
_CHANGE_EVENTS = {"os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.truncate",
                  "os.link", "os.symlink", "os.utime", "shutil.rmtree", "shutil.copyfile", "shutil.move"}
_TARGET_ONLY = {"shutil.copyfile", "os.link", "os.symlink"}  # (source, target): only the target changes
_BOTH = {"os.rename", "shutil.move"}
_LIBC = {b"system", b"execve", b"execv", b"execvp", b"execl", b"execlp", b"popen", b"posix_spawn",
         b"posix_spawnp", b"fork", b"vfork", b"open", b"open64", b"openat", b"openat64", b"fopen", b"fopen64",
         b"creat", b"unlink", b"rename", b"chmod", b"truncate", b"kill", b"setsid", b"ptrace", b"syscall"}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


class _Guard:
    def __init__(self, rules: dict):
        self.deny = [os.path.realpath(p) for p in rules.get("deny", [])]
        self.write = [os.path.realpath(p) for p in rules.get("write", [])] + ["/dev/null"]
        self.no_exec = bool(rules.get("no_exec", True))
        self.locked = False

    @staticmethod
    def _inside(path: str, roots) -> bool:
        return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)

    def _path(self, raw):
        if raw is None or isinstance(raw, int):
            return None
        try:
            return os.path.realpath(os.fsdecode(raw))
        except (TypeError, ValueError):
            return None

    def refuse(self, what, path=""):
        raise PermissionError(f"评分时不允许 (not allowed while grading)：{what} {path}".rstrip())

    def __call__(self, event, args):
        if event == "open":
            path = self._path(args[0])
            if path is None:
                return
            mode, flags = args[1] or "", args[2] if len(args) > 2 and isinstance(args[2], int) else 0
            if self._inside(path, self.deny):
                self.refuse("打开 (open)", path)
            if (any(c in mode for c in "wax+") or flags & _WRITE_FLAGS) and not self._inside(path, self.write):
                self.refuse("写文件 (write outside the private folder)", path)
            if self.locked and path.endswith((".py", ".pyc")):
                self.refuse("读源代码 (read source)", path)
        elif event in ("os.listdir", "os.scandir", "os.chdir"):
            path = self._path(args[0]) if args else None
            if path and self._inside(path, self.deny):
                self.refuse("查看文件夹 (list folder)", path)
        elif event in _CHANGE_EVENTS:
            changed = args[1:2] if event in _TARGET_ONLY else args[:2] if event in _BOTH else args[:1]
            for raw in changed:
                path = self._path(raw) if isinstance(raw, (str, bytes, os.PathLike)) else None
                if path and not self._inside(path, self.write):
                    self.refuse("改动文件 (change files outside the private folder)", path)
        elif event in _EXEC_EVENTS and self.no_exec:
            self.refuse("启动程序 (start a program)")
        elif event == "ctypes.dlsym" and self.no_exec:
            name = args[1] if len(args) > 1 else None
            name = name.encode() if isinstance(name, str) else name
            if name in _LIBC:
                self.refuse("调用 libc (call libc through ctypes)", repr(name))
        elif self.locked and event in ("compile", "exec", "marshal.loads", "code.__new__"):
            self.refuse("运行时生成代码 (code made at call time)")


def install() -> "_Guard | None":
    raw = os.environ.pop("GRADE_GUARD", None)
    if not raw:
        return None
    guard = _Guard(json.loads(raw))
    sys.addaudithook(guard)
    return guard


_guard = install()
