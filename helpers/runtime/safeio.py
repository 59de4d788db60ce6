"""Bounds and diagnoses for checkpoint files, used by ``helpers.checkpoint`` (load and save).

A checkpoint is untrusted input: a file of a few kilobytes must not be able to make the loader
allocate gigabytes, hang on a FIFO, or end in a raw traceback. Checks run cheapest first:

* ``as_path``        the argument is a str / PathLike of sane length (not None, bytes, an int)
* ``check_file``     a regular, readable file (not a folder, FIFO, device, dangling link or symlink loop,
                     nor a /proc file whose first read fails) of at most ``MAX_FILE_BYTES``
* ``check_archive``  torch's zip: the unpacked sizes that the archive declares stay within the same bound
* ``check_config``   every config value has the right type and lies within ``CONFIG_BOUNDS``
* ``expected_tensors``  name -> (shape, dtype) of the model that the config describes, built on the
                     ``meta`` device (no memory), at most ``MAX_STATE_BYTES`` in all
* ``check_tensors``  every stored tensor is dense, has data, a str name, and the expected shape and dtype
                     (checked on the declared metadata: no tensor's data is read)
* ``non_finite``     after the checksum: no tensor holds NaN or inf (a diverged model translates to '')

On the save side: ``as_path`` (a path ending with a slash is a folder, not a file name), ``check_target`` (a new
path or a writable regular file: not a folder, a device, a FIFO, a socket or a symlink; parent not a file),
``remove_stale_tmps`` (temporary files of a killed earlier save) and ``os_error_text`` (why a write
failed, without naming the hidden temporary file). Every refusal is a bilingual ``CheckpointError``.
"""

from __future__ import annotations

import errno
import math
import os
import re
import stat
import time
import zipfile
from pathlib import Path

from helpers.runtime.errors import CheckpointError, HelpersError, check_float, check_int

__all__ = [
    "CONFIG_BOUNDS",
    "MAX_FILE_BYTES",
    "MAX_PATH_CHARS",
    "MAX_STATE_BYTES",
    "RETRAIN",
    "as_path",
    "check_archive",
    "check_config",
    "check_file",
    "check_model_config",
    "check_target",
    "check_tensors",
    "corpus_record_ok",
    "declared_weights",
    "expected_tensors",
    "label",
    "non_finite",
    "os_error_text",
    "read_refusal",
    "refuse",
    "remove_stale_tmps",
    "save_refusal",
]

RETRAIN = "请运行 make pretrained（或 python -m helpers.tools.pretrain）重新生成 (regenerate the shipped models)"

# Bounds on what a checkpoint may declare: far above any model of this project (the shipped ones hold
# about 1.5 MB of weights), far below what would exhaust a laptop.
MAX_STATE_BYTES = 256 * 2**20  # all tensors together, as declared by the config
MAX_FILE_BYTES = MAX_STATE_BYTES + 64 * 2**20  # the file, and the sum of its archive's unpacked sizes
MAX_PATH_CHARS = 1024
CONFIG_BOUNDS = {"src_vocab_size": (1, 100_000), "tgt_vocab_size": (1, 100_000), "emb_size": (1, 2048),
                 "hidden_size": (1, 2048), "num_layers": (1, 8), "pad_id": (0, 3), "local_window": (1, 64)}


# ----------------------------------------------------------------------------------------- paths
def as_path(path, doing: str) -> Path:
    """A str / PathLike of sane length as a Path; anything else -> CheckpointError."""
    text = os.fspath(path) if isinstance(path, (str, os.PathLike)) else path
    if not isinstance(text, str):
        raise CheckpointError(f"无法{doing}检查点 (cannot {'load' if doing == '加载' else 'save'} checkpoint): "
                              f"路径应为字符串或 pathlib.Path (a str or Path)，实际 (got) {type(path).__name__}。"
                              f"例如 'my-model.pt'。")
    parts = Path(text).parts
    if not text or "\x00" in text or len(text) > MAX_PATH_CHARS or any(len(part) > 255 for part in parts):
        what = "路径为空或含有 NUL 字符 (empty path or NUL character)" if not text or "\x00" in text else \
            f"路径太长 (path too long: {len(text)} 个字符，最多 {MAX_PATH_CHARS}，每一段最多 255)"
        raise CheckpointError(f"无法{doing}检查点 (cannot {'load' if doing == '加载' else 'save'} checkpoint): "
                              f"{what}。请换一个短一些的路径，例如 'my-model.pt'。")
    if doing == "保存" and text.endswith(tuple(sep for sep in (os.sep, os.altsep) if sep)):
        raise CheckpointError(f"无法保存检查点 (cannot save checkpoint) {text}: 路径以 {text[-1]} 结尾，表示一个文件夹 "
                              f"(a folder)，不是文件名。请在末尾给出文件名 (a file name)，例如 '{text}my-model.pt'。")
    return Path(text)


def label(path: Path) -> str:
    name = path.name or str(path)
    return name if len(name) <= 80 else name[:40] + "…" + name[-20:]


# ----------------------------------------------------------------------------------------- save
def save_refusal(path: Path, what: str, todo: str = "") -> CheckpointError:
    todo = todo or "请换一个可写的位置 (a writable place)，例如当前文件夹下的 'my-model.pt'。"
    return CheckpointError(f"无法保存检查点 (cannot save checkpoint) {label(path)}: {what}。{todo}")


def os_error_text(exc: BaseException) -> str:
    """Why a write failed, in words, without the name of the hidden temporary file."""
    chain = [exc]
    while chain[-1].__cause__ or chain[-1].__context__:
        chain.append(chain[-1].__cause__ or chain[-1].__context__)
    codes = {getattr(e, "errno", None) for e in chain}
    if codes & {errno.ENOSPC, getattr(errno, "EDQUOT", -1)}:
        return "磁盘已满 (disk full / quota exceeded)"
    if codes & {errno.EACCES, errno.EPERM, errno.EROFS}:
        return "没有写入权限，文件夹是只读的 (permission denied: the folder is read-only)"
    if errno.EISDIR in codes:
        return "目标是一个文件夹 (target is a directory)"
    if errno.ENOTDIR in codes:
        return "上级路径中有一个文件而不是文件夹 (a parent in the path is a file, not a folder)"
    if errno.ENAMETOOLONG in codes:
        return "文件名太长 (file name too long)"
    first = next((e for e in chain if isinstance(e, OSError)), None)
    detail = first.strerror if first is not None and first.strerror else type(exc).__name__
    return f"写入失败 (write failed: {detail})"


_NODE_KINDS = {stat.S_IFCHR: "字符设备 (character device, e.g. /dev/null)", stat.S_IFBLK: "块设备 (block device)",
               stat.S_IFIFO: "管道 (FIFO)", stat.S_IFSOCK: "套接字 (socket)", stat.S_IFLNK: "符号链接 (symlink)"}


def check_target(path: Path) -> None:
    """Refuse, before writing anything, a target that is a folder, read-only or not a regular file (a device
    such as /dev/null, a FIFO, a socket, a symlink: checked by type with ``lstat``, never by name; the save
    would replace the node itself), or whose parent is a file. A new path or a writable regular file passes."""
    for parent in [path.parent, *path.parent.parents]:
        if os.path.lexists(parent):
            if not parent.is_dir():
                raise save_refusal(path, f"上级路径 {label(parent)} 是一个文件，不是文件夹 "
                                          f"(the parent path is a file, not a folder)")
            break
    try:
        mode = os.lstat(path).st_mode  # the path itself: a symlink is not followed
    except FileNotFoundError:
        return  # a new file
    except OSError as exc:
        raise save_refusal(path, os_error_text(exc)) from None
    if stat.S_ISDIR(mode):
        raise save_refusal(path, "目标是一个文件夹 (target is a directory)", "请在路径末尾给出文件名，例如 'folder/my-model.pt'。")
    if not stat.S_ISREG(mode):  # by type, not by name: /dev/null, a FIFO, a socket, a symlink
        kind = _NODE_KINDS.get(stat.S_IFMT(mode), "特殊文件 (special file)")
        raise save_refusal(path, f"目标不是普通文件 (not a regular file)，而是{kind}，不会替换它 (not replaced)",
                            "请给出一个普通文件或新文件的路径 (a regular file or a new path)，例如 'my-model.pt'"
                            "；要写到符号链接指向的文件，请直接给出那个文件的路径。")
    if path.is_file():
        mode = path.stat().st_mode
        if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
            raise save_refusal(path, "目标文件是只读的，不会覆盖它 (target is read-only: not replaced)",
                                "如确实要覆盖，请先取消只读 (chmod u+w)，或换一个文件名。")


_TMP = re.compile(r"^(?:(\d+)\.)?[\w-]+\.tmp$")
STALE_TMP_SECONDS = 3600


def _pid_alive(pid: int) -> bool:
    if os.name != "posix":
        return True  # no cheap liveness test: rely on the age
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. another user's process
        return True
    return True


def remove_stale_tmps(path: Path) -> list[Path]:
    """Delete temporary files of earlier saves of ``path`` whose process is gone (or that are an hour old)."""
    removed, prefix = [], f".{path.name}."
    try:
        candidates = [p for p in path.parent.iterdir() if p.name.startswith(prefix)]
    except OSError:
        return removed
    for tmp in candidates:
        match = _TMP.match(tmp.name[len(prefix):])
        if not match:
            continue
        try:
            age = time.time() - tmp.lstat().st_mtime
            pid = int(match.group(1)) if match.group(1) else None
            dead = pid is not None and pid != os.getpid() and not _pid_alive(pid)
            if dead or age > STALE_TMP_SECONDS:
                tmp.unlink()
                removed.append(tmp)
        except (OSError, ValueError):
            continue
    return removed


def corpus_record_ok(record) -> bool:
    return isinstance(record, dict) and all(isinstance(k, str) for k in record) and \
        isinstance(record.get("name", ""), str)


# ----------------------------------------------------------------------------------------- load
def refuse(path, what: str, todo: str = "") -> CheckpointError:
    todo = todo or f"请确认文件来自 helpers.save_checkpoint，或重新训练并保存；预训练模型{RETRAIN}。"
    return CheckpointError(f"无法加载检查点 (cannot load checkpoint) {label(Path(path))}: {what}。{todo}")


def check_file(path: Path) -> None:
    """A regular, readable file of at most MAX_FILE_BYTES (never opens a FIFO or a device)."""
    try:
        st = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ENOENT and os.path.islink(path):
            what = "这是一个指向不存在文件的符号链接 (dangling symlink)"
        elif exc.errno == errno.ENOENT:
            raise CheckpointError(f"找不到检查点文件 (checkpoint not found): {label(path)}。"
                                  f"请检查路径；预训练模型{RETRAIN}。") from None
        elif exc.errno == errno.ELOOP:
            what = "符号链接构成循环 (symlink loop)"
        elif exc.errno == errno.ENAMETOOLONG:
            what = "路径太长 (path too long)"
        elif exc.errno in (errno.EACCES, errno.EPERM):
            what = "没有读取权限 (permission denied)"
        elif exc.errno == errno.ENOTDIR:
            what = "路径中有一段是文件而不是文件夹 (a part of the path is a file, not a folder)"
        else:
            what = f"无法访问 (cannot access: {exc.strerror or type(exc).__name__})"
        raise refuse(path, what, "请检查路径。") from None
    if stat.S_ISDIR(st.st_mode):
        raise refuse(path, "这是一个文件夹，不是检查点文件 (a directory, not a checkpoint file)",
                      "请给出文件夹里的 .pt 文件，例如 'folder/my-model.pt'。")
    if not stat.S_ISREG(st.st_mode):
        raise refuse(path, "这不是普通文件，而是管道、设备或套接字 (not a regular file: FIFO / device / socket)",
                      "请给出一个 .pt 文件。")
    if st.st_size > MAX_FILE_BYTES:
        raise refuse(path, f"文件太大 (file too large: {st.st_size / 2**20:.0f} MiB，上限 limit "
                            f"{MAX_FILE_BYTES / 2**20:.0f} MiB)")
    try:  # readable at all? (/proc/self/mem is a "regular" file of size 0 whose first read fails)
        with open(path, "rb") as f:
            f.read(4)
    except OSError as exc:
        raise read_refusal(path, exc) from None


def read_refusal(path: Path, exc: OSError) -> CheckpointError:
    """The bilingual refusal for a file that exists but cannot be read (permission, I/O error, ...)."""
    if getattr(exc, "errno", None) in (errno.EACCES, errno.EPERM):
        return refuse(path, "没有读取权限 (permission denied)", "请检查文件的权限 (chmod u+r)，或换一个你能读取的文件。")
    return refuse(path, f"无法读取这个文件 (cannot read: {exc.strerror or type(exc).__name__})，"
                        f"它可能是 /proc 之类的特殊文件或已损坏 (a special file such as /proc, or damaged)",
                  "请给出一个由 helpers.save_checkpoint 保存的 .pt 文件。")


def non_finite(state: dict) -> str:
    """"" when every floating tensor of ``state`` is finite; otherwise which tensors hold NaN / inf, in words."""
    import torch

    bad = {}
    for name, t in state.items():
        if isinstance(t, torch.Tensor) and t.is_floating_point():
            count = int((~torch.isfinite(t)).sum())
            if count:
                bad[name] = count
    if not bad:
        return ""
    shown = "、".join(f"{name} 里有 {count} 个" for name, count in list(bad.items())[:3])
    more = f" 等 {len(bad)} 个张量 (tensors)" if len(bad) > 3 else ""
    return (f"权重里有 NaN 或无穷大的值 (non-finite weights: NaN / inf)：{shown}{more}，"
            f"这样的模型只会翻译出空句子 (it would translate everything to '')")


def check_archive(path: Path) -> None:
    """torch.save writes a zip: its declared unpacked sizes must stay within MAX_FILE_BYTES."""
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        try:
            with open(path, "rb") as f:
                head = f.read(2)
        except OSError as exc:
            raise read_refusal(path, exc) from None
        if head[:1] == b"\x80":  # a bare pickle (or torch's legacy format): it could run code or declare any size
            what = "这是一个裸 pickle 文件，不是 torch 的 zip 检查点，出于安全拒绝加载 (refused: a bare pickle, not a torch zip file)"
        else:
            what = "文件已损坏或被截断，或不是 torch 文件 (corrupt, truncated or not a torch file)"
        raise refuse(path, what) from None
    declared = sum(info.file_size for info in infos)
    if declared > MAX_FILE_BYTES or len(infos) > 100_000:
        raise refuse(path, f"压缩包解开后声称有 {declared / 2**20:.0f} MiB，超过上限 "
                            f"(archive declares {declared / 2**20:.0f} MiB unpacked > limit {MAX_FILE_BYTES / 2**20:.0f} MiB)")


def check_model_config(config) -> dict:
    """Types and bounds of every config value; a plain ``HelpersError`` (no file named) when one is off.

    The one place that says which model a checkpoint may describe: ``check_config`` applies it to a file
    being loaded, ``python -m helpers.train`` to the model it is about to train (so it never trains
    what ``load_checkpoint`` would then refuse)."""
    from helpers.decoders import RNN_TYPES
    from helpers.seq2seq import VARIANTS

    if not isinstance(config, dict) or not all(isinstance(k, str) for k in config):
        raise HelpersError("模型配置无法读取 (unreadable model config)：应为 model.config 那样的字典。")
    config = dict(config)
    if config.get("variant") not in VARIANTS:
        raise HelpersError(f"variant 应为 {list(VARIANTS)} 之一 (one of)，实际 (got) {config.get('variant')!r}。")
    if config.get("rnn", "gru") not in RNN_TYPES:
        raise HelpersError(f"rnn 应为 {list(RNN_TYPES)} 之一 (one of)，实际 (got) {config.get('rnn')!r}。")
    for key, (low, high) in CONFIG_BOUNDS.items():
        if key in config or key.endswith("vocab_size"):
            config[key] = check_int(key, config.get(key), low, high)
    if "dropout" in config:
        config["dropout"] = check_float("dropout", config["dropout"], 0.0, 0.99)
    for key in ("bidirectional", "input_feeding"):
        if key in config and not isinstance(config[key], bool):
            raise HelpersError(f"{key} 应为 true / false (a bool)，实际 (got) {config[key]!r}。")
    return config


def declared_weights(config: dict) -> dict:
    """name -> (shape, dtype) of the model ``config`` describes, built on the meta device (no memory).

    A plain ``HelpersError`` when the config builds no model or its weights exceed ``MAX_STATE_BYTES``."""
    import torch

    from helpers.seq2seq import Seq2Seq

    try:
        with torch.device("meta"):
            spec = {k: (tuple(v.shape), v.dtype) for k, v in Seq2Seq.from_config(config).state_dict().items()}
    except Exception as exc:  # noqa: BLE001 - HelpersError of from_config, or torch's ValueError
        raise HelpersError(f"模型配置无法建立模型 (the model config does not describe a model): {exc}") from None
    total = sum(math.prod(shape) * torch.empty((), dtype=dtype).element_size() for shape, dtype in spec.values())
    if total > MAX_STATE_BYTES:
        raise HelpersError(f"模型配置声称需要 {total / 2**20:.0f} MiB 权重，超过上限 "
                           f"(the config declares {total / 2**20:.0f} MiB of weights > limit "
                           f"{MAX_STATE_BYTES / 2**20:.0f} MiB)")
    return spec


def check_config(path, config) -> dict:
    """``check_model_config`` for a file being loaded (a tampered file must not reach torch's constructors)."""
    if not isinstance(config, dict) or not all(isinstance(k, str) for k in config):
        raise refuse(path, "元数据中的模型配置无法读取 (unreadable model config)")
    try:
        return check_model_config(config)
    except HelpersError as exc:
        raise refuse(path, f"模型配置中的值不合理 (implausible model config): {str(exc).rstrip('。')}") from None


def expected_tensors(path, config: dict) -> dict:
    """``declared_weights`` for a file being loaded."""
    try:
        return declared_weights(config)
    except HelpersError as exc:
        raise refuse(path, str(exc)) from None


def check_tensors(path, state: dict, spec: dict, config: dict) -> None:
    """Names, layouts, dtypes and shapes as declared, before any tensor's data is read."""
    import torch

    bad_keys = [k for k in state if not isinstance(k, str)]
    if bad_keys:
        raise refuse(path, f"权重名必须是字符串 (non-string tensor names: {bad_keys[:3]!r})")
    for name, t in state.items():
        if not isinstance(t, torch.Tensor):
            raise refuse(path, f"权重 {name!r} 不是张量 (not a tensor: {type(t).__name__})")
        if t.layout != torch.strided:
            raise refuse(path, f"权重 {name!r} 是稀疏张量 (sparse tensor, layout {t.layout})，本项目只保存稠密张量")
        if t.device.type != "cpu":
            raise refuse(path, f"权重 {name!r} 没有数据 (a {t.device.type} tensor without data)")
    missing, unexpected = sorted(set(spec) - set(state)), sorted(set(state) - set(spec))
    if missing or unexpected:
        raise refuse(path, f"权重与模型结构不符 (weights do not fit the model config): 缺少 (missing) "
                            f"{missing[:4]}{'…' if len(missing) > 4 else ''}，多余 (unexpected) "
                            f"{unexpected[:4]}{'…' if len(unexpected) > 4 else ''}")
    sizes = ", ".join(f"{k}={config.get(k)}" for k in ("emb_size", "hidden_size", "num_layers") if k in config)
    for name, (shape, dtype) in spec.items():
        t = state[name]
        if tuple(t.shape) != shape or t.dtype != dtype:
            raise refuse(path, f"权重与模型结构不符 (weights do not fit the model config): 张量 {name} 的形状 "
                                f"(shape) {list(t.shape)} {t.dtype}，按配置 ({sizes}) 应为 (expected) "
                                f"{list(shape)} {dtype}")


