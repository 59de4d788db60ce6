"""The guard every graded process starts with: an audit hook (PEP 578), a guard against accidents,
not isolation. It stops the ordinary ways student code would touch the teacher's files (open, write,
list, rename, link, start a program, signal another process) and says so in Chinese; it cannot stop
code that sets out to get round it (C extensions, ``ctypes`` through a name it does not know, the
interpreter's internals). The walls are the operating system's: bubblewrap and another user
(``grading.jail``); where they are missing the grader says so at the start and in its reports.
The grader writes this file as ``sitecustomize.py`` into each private folder, so Python runs it
before the kernel or a sandbox child imports anything else.

Rules, read from the environment variable ``GRADE_GUARD`` (JSON, removed after reading):

- ``deny``: folders nothing may open or list (the real helpers package, the course notebooks, the
  submissions, the reports);
- ``write``: the only folders a file may be written, created, renamed or removed in (the private one);
- ``no_exec``: starting programs (``subprocess``, ``os.system``, ``os.exec*``, ``posix_spawn``),
  signalling any process but itself (``os.kill``, ``os.killpg``) and calling libc's process, signal
  and file functions through ``ctypes`` is refused;

Paths given relative to a folder's file descriptor (``dir_fd``) are resolved through that descriptor;
a folder outside the writable ones cannot be opened as a file (so no such descriptor exists), a
relative path may not climb with ``..``, a hard link may not point at a file outside the writable
folders and a symbolic link may not point outside them.
- ``lock_after_setup``: a sandbox child sets ``_guard.locked = True`` after it has re-created the
  student's function; from then on no ``.py`` file may be opened and no code compiled, so the
  function cannot rebuild the library's implementation at call time.

Standard library only.
"""

import json
import os
import sys

_EXEC_EVENTS = {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "pty.spawn",
                "os.startfile", "_winapi.CreateProcess"}
_CHANGE_EVENTS = {"os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.truncate",
                  "os.link", "os.symlink", "os.utime", "shutil.rmtree", "shutil.copyfile", "shutil.move"}
_TARGET_ONLY = {"shutil.copyfile", "os.symlink"}  # (source, target): only the target changes
_BOTH = {"os.rename", "shutil.move", "os.link"}  # a hard link to an outside file would let it be written
# where each event's dir_fd argument is (index into args): a relative path is relative to that folder
_DIR_FD = {"os.remove": (1,), "os.rmdir": (1,), "os.mkdir": (2,), "os.chmod": (2,), "os.chown": (3,),
           "os.utime": (3,), "os.rename": (2, 3), "os.link": (2, 3), "os.symlink": (2,)}
_LIBC = {b"system", b"execve", b"execv", b"execvp", b"execvpe", b"execl", b"execlp", b"execle", b"execveat",
         b"fexecve", b"popen", b"posix_spawn", b"posix_spawnp", b"fork", b"vfork", b"clone", b"clone3",
         b"open", b"open64", b"openat", b"openat64", b"openat2", b"fopen", b"fopen64", b"freopen", b"creat",
         b"creat64", b"unlink", b"unlinkat", b"rename", b"renameat", b"renameat2", b"link", b"linkat",
         b"symlink", b"symlinkat", b"mkdir", b"mkdirat", b"rmdir", b"chmod", b"fchmodat", b"chown", b"lchown",
         b"fchownat", b"truncate", b"truncate64", b"kill", b"killpg", b"tgkill", b"tkill", b"sigqueue",
         b"pidfd_send_signal", b"setsid", b"ptrace", b"syscall", b"prctl", b"dlopen", b"mount", b"chdir",
         b"fchdir", b"chroot"}
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

    def _path(self, raw, dir_fd=None):
        if raw is None or isinstance(raw, int):
            return None
        try:
            text = os.fsdecode(raw)
            if dir_fd is not None and not os.path.isabs(text):  # relative to that folder, not to the cwd
                base = os.readlink(f"/proc/self/fd/{int(dir_fd)}")
                text = os.path.join(base, text)
            return os.path.realpath(text)
        except (TypeError, ValueError, OSError):
            self.refuse("用文件描述符定位路径 (a path relative to a descriptor that cannot be checked)")

    def refuse(self, what, path=""):
        raise PermissionError(f"评分时不允许 (not allowed while grading)：{what} {path}".rstrip())

    def __call__(self, event, args):
        if event == "open":
            path = self._path(args[0])
            if path is None:
                return
            raw = os.fsdecode(args[0]) if isinstance(args[0], (str, bytes, os.PathLike)) else ""
            if raw and not os.path.isabs(raw) and ".." in raw.replace("\\", "/").split("/"):
                self.refuse("用 .. 的相对路径 (relative path with ..)", raw)
            mode, flags = args[1] or "", args[2] if len(args) > 2 and isinstance(args[2], int) else 0
            if self._inside(path, self.deny):
                self.refuse("打开 (open)", path)
            if os.path.isdir(path) and not self._inside(path, self.write):
                self.refuse("把文件夹当文件打开 (open a folder outside the private one)", path)
            if (any(c in mode for c in "wax+") or flags & _WRITE_FLAGS) and not self._inside(path, self.write):
                self.refuse("写文件 (write outside the private folder)", path)
            if self.locked and path.endswith((".py", ".pyc")):
                self.refuse("读源代码 (read source)", path)
        elif event in ("os.listdir", "os.scandir", "os.chdir"):
            path = self._path(args[0]) if args else None
            if path and self._inside(path, self.deny):
                self.refuse("查看文件夹 (list folder)", path)
        elif event in _CHANGE_EVENTS:
            fds = [args[i] if i < len(args) else None for i in _DIR_FD.get(event, ())]
            if event in _TARGET_ONLY:
                changed = [(args[1], fds[-1] if fds else None)] if len(args) > 1 else []
            elif event in _BOTH:
                changed = [(args[0], fds[0] if fds else None), (args[1], fds[-1] if fds else None)]
            else:
                changed = [(args[0], fds[0] if fds else None)] if args else []
            for raw, dir_fd in changed:
                path = self._path(raw, dir_fd) if isinstance(raw, (str, bytes, os.PathLike)) else None
                if path and not self._inside(path, self.write):
                    self.refuse("改动文件 (change files outside the private folder)", path)
            if event == "os.symlink" and isinstance(args[0], (str, bytes, os.PathLike)) and len(args) > 1:
                link = self._path(args[1], fds[0] if fds else None) or ""
                target = os.path.realpath(os.path.join(os.path.dirname(link), os.fsdecode(args[0])))
                if not self._inside(target, self.write):
                    self.refuse("指向外面的符号链接 (symlink pointing outside the private folder)", target)
        elif event in ("os.kill", "os.killpg") and self.no_exec:
            if not args or args[0] != os.getpid():
                self.refuse("给别的进程发信号 (signal another process)")
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
