"""Run-time switches shared by notebooks, tests and command lines.

* Quick mode: set the environment variable ``NB_QUICK=1`` and every notebook runs top to
  bottom in seconds (tiny training budgets, shipped pretrained models for the rest).
* ``seed_everything`` makes runs reproducible on the CPU.
* ``use_notebook_threads`` sets torch's thread count the same way in every notebook (``NB_THREADS``).
* ``pick_device`` prefers CUDA, then Apple MPS, then the CPU. The CPU is the reference.
* ``check_environment`` / ``format_report``: the set-up check of notebook 00 and its table, padded by
  display width (a Chinese character takes two columns in a terminal or a notebook's monospace output).
"""

from __future__ import annotations

import os
import random
import unicodedata

QUICK_ENV = "NB_QUICK"
THREADS_ENV = "NB_THREADS"
NOTEBOOK_THREADS = 1


def is_quick() -> bool:
    """True when quick mode is on (``NB_QUICK`` set to anything but '', '0', 'false', 'no')."""
    return os.environ.get(QUICK_ENV, "").strip().lower() not in ("", "0", "false", "no")


def seed_everything(seed: int = 0) -> None:
    """Seed Python, numpy and torch so that the same seed gives the same numbers on the CPU."""
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def use_notebook_threads(default: int = NOTEBOOK_THREADS) -> int:
    """Set torch's intra-op thread count for a notebook and return it: ``NB_THREADS`` if set, else ``default``.

    Every notebook's setup cell calls this, so all of them run with the same count. Why 1 by default:
    measured on this project's 2-core machine while other jobs kept it busy (load average 2-3), the
    quick-mode run of notebook 06 (which trains with the same count) took 30.9 s and 35.6 s with
    ``NB_THREADS=1`` against 94.3 s and 152.1 s with ``NB_THREADS=2`` (runs alternated; nbclient, whole
    notebook). The tensors of these notebooks are tiny, so a second thread saves little even on an idle
    machine (``helpers.train.TRAIN_THREADS`` gives 95 vs 110 steps/s), while on a busy one every op waits
    for a core that another process holds (oversubscription): one thread is 3-4 times faster there.

    ``NB_THREADS`` must be a whole number of at least 1 (e.g. ``NB_THREADS=4`` on an idle many-core machine);
    anything else raises a bilingual ``HelpersError``.
    """
    import torch

    from helpers.runtime.errors import HelpersError

    raw = os.environ.get(THREADS_ENV, "").strip()
    if raw:
        try:
            count = int(raw)
        except ValueError:
            count = 0
        if count < 1:
            raise HelpersError(f"环境变量 {THREADS_ENV} 应是不小于 1 的整数 (a whole number ≥ 1)，现在是 {raw[:20]!r}。"
                               f"删掉它就用默认的 {default} 个线程 (unset it for the default)。")
    else:
        count = int(default)
    torch.set_num_threads(count)
    return count


def pick_device(prefer: str | None = None):
    """Return a torch.device: ``prefer`` if given, else CUDA, else MPS, else CPU.

    A ``prefer`` that torch does not know, or a device this machine does not have (``cuda`` without
    CUDA, ``cuda:3`` on a one-GPU machine, ``mps`` off Apple silicon), raises a bilingual ``HelpersError``."""
    import torch

    if prefer:
        return check_device(prefer)
    if torch.cuda.is_available():
        return torch.device("cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def check_device(name):
    """``name`` (a str or torch.device) as a torch.device that exists on this machine, or a HelpersError."""
    import torch

    from helpers.runtime.errors import HelpersError

    todo = "请用 --device cpu，或不写 --device 让程序自动选择 (leave it out: auto)。"
    try:
        device = name if isinstance(name, torch.device) else torch.device(str(name))
    except (RuntimeError, ValueError, TypeError):
        raise HelpersError(f"不认识的设备 (unknown device) {str(name)[:40]!r}：可用的是 cpu、cuda、cuda:0、mps。"
                           f"{todo}") from None
    if device.type == "cuda":
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if count == 0:
            raise HelpersError(f"这台机器没有可用的 CUDA GPU (CUDA not available)，无法使用 {device}。{todo}")
        if device.index is not None and device.index >= count:
            raise HelpersError(f"没有 GPU {device}（这台机器只有 {count} 个 (only {count} CUDA devices)："
                               f"cuda:0 到 cuda:{count - 1}）。{todo}")
    elif device.type == "mps":
        mps = getattr(torch.backends, "mps", None)
        if mps is None or not mps.is_available():
            raise HelpersError(f"这台机器没有 Apple MPS (MPS not available)，无法使用 {device}。{todo}")
    elif device.type != "cpu":
        raise HelpersError(f"本项目不支持设备 (unsupported device) {device}：可用的是 cpu、cuda、mps。{todo}")
    return device


def check_environment() -> list[tuple[str, bool, str]]:
    """The set-up check of notebook 00: a list of (item, ok, detail or what to run to fix it)."""
    import importlib
    import platform
    import sys

    results: list[tuple[str, bool, str]] = []
    ok = sys.version_info >= (3, 10)
    results.append(("Python", ok, platform.python_version() if ok else "需要 Python ≥ 3.10 (Python 3.11 推荐)"))
    for name, wanted in (("torch", "2.13"), ("numpy", ""), ("matplotlib", ""), ("ipywidgets", "8")):
        try:
            module = importlib.import_module(name)
            version = getattr(module, "__version__", "?")
            good = version.startswith(wanted)
            results.append((name, good, version if good else f"{version}，建议 {wanted}.x：pip install -r requirements.txt"))
        except ImportError:
            results.append((name, False, "未安装 (not installed)：pip install -r requirements.txt"))
    try:
        results.append(("设备 (device)", True, str(pick_device())))
    except Exception as exc:  # pragma: no cover - torch missing is reported above
        results.append(("设备 (device)", False, str(exc)))
    from helpers.viz import setup_chinese_font

    try:
        results.append(("中文字体 (Chinese font)", True, setup_chinese_font()))
    except Exception as exc:
        results.append(("中文字体 (Chinese font)", False, str(exc)))
    from helpers.checkpoint import PRETRAINED_DIR as pretrained

    names = sorted(p.stem for p in pretrained.glob("*.pt"))
    results.append(("预训练模型 (pretrained models)", bool(names),
                    ", ".join(names) if names else "未找到：运行 make pretrained 重新训练 (retrain)"))
    return results


def display_width(text: str) -> int:
    """Columns ``text`` takes in a monospace font: 2 for East Asian wide / full-width characters, else 1."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in str(text))


def pad_display(text: str, width: int) -> str:
    """``text`` left-aligned in ``width`` columns (like ``f"{text:<width}"``, but counting display width)."""
    return str(text) + " " * max(0, width - display_width(text))


def format_report(report: list[tuple[str, bool, str]]) -> str:
    """The table of ``check_environment()``: one line per item (√ or ×, item, detail), details aligned."""
    width = max((display_width(item) for item, _, _ in report), default=0) + 2
    return "\n".join(f"{'√' if ok else '×'} {pad_display(item, width)}{detail}" for item, ok, detail in report)
