"""Where the project's commands write: checked before the work starts, reserved, never a user's file lost.

* ``reserve_output(path, force)`` (``python -m helpers.train --out``): before any training, the target
  must be writable (not a folder, not a read-only file, no file in the way of its folder, the folder
  writable) and, without ``force``, absent. The path is then reserved with an exclusive lock file
  ``.NAME.lock`` next to it (created with ``O_EXCL``, holding the process id), so a second run with the
  same ``--out`` is refused while the first one trains. A lock whose process is gone (a killed run) is
  removed; on Windows, where a process id cannot be probed safely, the message says which file to delete.
* ``check_build_folder`` / ``stamp_build_folder`` (``python -m helpers.tools.site --out``): a build folder
  is marked with a stamp file, and a command only clears sub-folders of a folder that carries its stamp,
  so ``--out .`` or ``--out ~`` can never delete a user's ``src/``.
* ``backup_file(path)``: keeps a copy ``NAME.bak`` (``.bak1``, ``.bak2``, … when taken) before a command
  replaces a user's file that it cannot merge into.

Every refusal is a bilingual ``HelpersError`` (a ``ValueError``) saying what is wrong and what to do.
"""

from __future__ import annotations

import os
import secrets
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from helpers.runtime.errors import HelpersError
from helpers.runtime.safeio import _pid_alive, as_path, check_target, label, os_error_text, save_refusal

__all__ = ["Reservation", "backup_file", "check_build_folder", "reserve_output", "stamp_build_folder"]

LOCK_SUFFIX = ".lock"
UNREADABLE_LOCK_SECONDS = 60  # a lock file without a process id is stale after this long (its writer died)


def lock_path(path: Path) -> Path:
    """The lock file that reserves ``path``: ``.NAME.lock`` in the same folder."""
    return path.parent / f".{path.name}{LOCK_SUFFIX}"


@dataclass
class Reservation:
    """A reserved output path. ``owned``: this process holds the lock file (and removes it at the end)."""

    path: Path
    force: bool
    token: str = ""
    owned: bool = False
    other_pid: int | None = None  # the live run whose lock ``force`` went past
    made_dirs: list[Path] = field(default_factory=list)

    @property
    def lock(self) -> Path:
        return lock_path(self.path)

    def target(self) -> Path:
        """Where to save now: ``path``, or, when a file appeared there meanwhile and ``force`` was not
        given, a free sibling ``STEM.PID.SUFFIX`` (so neither that file nor this run's work is lost)."""
        if self.force or not os.path.lexists(self.path):
            return self.path
        n, stem, suffix = 0, self.path.stem, self.path.suffix
        while True:
            candidate = self.path.with_name(f"{stem}.{os.getpid()}{'.' + str(n) if n else ''}{suffix}")
            if not os.path.lexists(candidate):
                return candidate
            n += 1

    def release(self, saved: bool) -> None:
        """Remove the lock (if it is still ours) and, when nothing was saved, the folders made for it."""
        if self.owned:
            try:
                if self.lock.read_text(encoding="utf-8", errors="replace").split()[1:2] == [self.token]:
                    self.lock.unlink()
            except (OSError, IndexError):
                pass
            self.owned = False
        if not saved:
            for folder in reversed(self.made_dirs):
                try:
                    folder.rmdir()  # only when empty
                except OSError:
                    break
            self.made_dirs = []


def _lock_owner(lock: Path) -> int | None:
    """The process id in a lock file; None when it is unreadable or being written."""
    try:
        first = lock.read_text(encoding="utf-8", errors="replace").split()[:1]
        return int(first[0]) if first else None
    except (OSError, ValueError):
        return None


def _stale(lock: Path, pid: int | None) -> bool:
    if pid is None:
        try:
            return time.time() - lock.lstat().st_mtime > UNREADABLE_LOCK_SECONDS
        except OSError:
            return True
    return os.name == "posix" and pid != os.getpid() and not _pid_alive(pid)


def _make_parents(path: Path) -> list[Path]:
    missing = []
    for parent in [path.parent, *path.parent.parents]:
        if os.path.lexists(parent):
            break
        missing.append(parent)
    made = []
    try:
        for folder in reversed(missing):
            folder.mkdir()
            made.append(folder)
    except OSError as exc:
        for folder in reversed(made):
            try:
                folder.rmdir()
            except OSError:
                pass
        raise save_refusal(path, os_error_text(exc)) from None
    return made


def reserve_output(path, force: bool = False) -> Reservation:
    """Check that ``path`` can be written and reserve it for this process (see the module docstring).

    Raises ``HelpersError`` (``CheckpointError`` for an unwritable place) before any work is done."""
    path = as_path(path, "保存")
    check_target(path)  # a folder, a read-only file, or a file where a folder should be
    if os.path.lexists(path) and not force:
        raise HelpersError(f"{label(path)} 已存在 (already exists)，不会覆盖它 (not overwritten)。"
                           f"请换一个 --out 路径，或加 --force 覆盖。")
    reservation = Reservation(path, bool(force), token=secrets.token_hex(8), made_dirs=_make_parents(path))
    lock = reservation.lock
    for _ in range(3):
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            pid = _lock_owner(lock)
            if _stale(lock, pid):
                try:
                    lock.unlink()
                except FileNotFoundError:
                    pass
                except OSError as exc:
                    reservation.release(saved=False)
                    raise save_refusal(path, os_error_text(exc)) from None
                continue
            if force:  # --force: the user wants this file replaced, whoever else is writing it
                reservation.other_pid = pid
                return reservation
            reservation.release(saved=False)
            who = f"进程 (PID) {pid}" if pid is not None else "另一个进程 (another process)"
            raise HelpersError(f"{label(path)} 已被另一个训练占用 (reserved by another run)：{who} 正在训练并将写入这个文件。"
                               f"请等它结束，或换一个 --out 路径，或加 --force 覆盖。如果确定没有别的训练在运行"
                               f"（例如上次被强行结束），请删除锁文件 (lock file) {lock} 后重试。") from None
        except OSError as exc:
            reservation.release(saved=False)
            raise save_refusal(path, os_error_text(exc)) from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(f"{os.getpid()} {reservation.token}\n")
        except OSError as exc:
            try:
                lock.unlink()
            except OSError:
                pass
            reservation.release(saved=False)
            raise save_refusal(path, os_error_text(exc)) from None
        reservation.owned = True
        return reservation
    reservation.release(saved=False)
    raise HelpersError(f"无法预留 (cannot reserve) {label(path)}：锁文件 (lock file) {lock} 反复出现又消失。"
                       "请稍后重试，或换一个 --out 路径。")


# ------------------------------------------------------------------------------- build folders
STAMP_NAME = ".helpers-build"


def check_build_folder(folder: Path, owner: str, parts=("src", "html")) -> bool:
    """May ``owner`` clear ``folder``'s ``parts``? True when it carries ``owner``'s stamp; False when
    none of the parts exists (a new build folder). Otherwise a ``HelpersError``: they are not ours."""
    stamp = folder / STAMP_NAME
    try:
        if stamp.is_file() and stamp.read_text(encoding="utf-8", errors="replace").strip() == owner:
            return True
    except OSError:
        pass
    present = [name for name in parts if os.path.lexists(folder / name)]
    if not present:
        return False
    raise HelpersError(f"{folder} 里已有 {', '.join(present)}，但它不是 {owner} 建立的构建文件夹 "
                       f"(not a build folder made by {owner}: no stamp file {STAMP_NAME})，为了不删除你的文件，"
                       f"这里什么也不会清空。请用 --out 指定一个新的或空的文件夹 (a new or empty folder)，"
                       f"例如 --out site/_build。")


def stamp_build_folder(folder: Path, owner: str) -> None:
    """Create ``folder`` (and its parents) and mark it as ``owner``'s build folder."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / STAMP_NAME).write_text(owner + "\n", encoding="utf-8")


# -------------------------------------------------------------------------------------- backups
def backup_file(path: Path) -> Path:
    """Copy ``path`` to a free ``NAME.bak`` / ``NAME.bakN`` next to it (bytes and times kept); returns it."""
    n = 0
    while True:
        backup = path.with_name(path.name + (".bak" if n == 0 else f".bak{n}"))
        if not os.path.lexists(backup):
            break
        n += 1
    try:
        shutil.copy2(path, backup)
    except OSError as exc:
        raise HelpersError(f"无法备份 (cannot back up) {path}：{os_error_text(exc)}。"
                           "请检查文件夹的写入权限 (write permission)，或先手动备份这个文件。") from None
    return backup

