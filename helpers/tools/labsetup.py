"""Set up the JupyterLab of *this* environment for a Chinese classroom: ``python -m helpers.tools.labsetup``.

Run by the install step (``make lab`` / ``make test``; the Windows and conda routes in the README call
it by hand). Everything goes into the environment (``sys.prefix``), nothing into the user's home:

- ``share/jupyter/lab/settings/overrides.json`` (from ``helpers/tools/lab/overrides.json``): the
  interface in 简体中文 (``jupyterlab-language-pack-zh-CN``), no "official Jupyter news?" prompt and
  no update check, so JupyterLab never goes online by itself;
- ``etc/jupyter/custom/custom.css`` plus the bundled font (``helpers/viz/fonts``): JupyterLab serves
  both under ``/custom/``, so notebook prose shows Chinese without a system CJK font;
- ``etc/jupyter/jupyter_server_config.json``: turns on ``LabApp.custom_css`` and makes the server
  look for ``/custom/`` files in that folder (``static_custom_path`` is not a config option of its
  own, so it goes through ``ServerApp.tornado_settings``; other keys of an existing file are kept;
  the ``jupyter_server_config.d/`` folder would not do: the server reads only extension switches there).

A user's own settings (Settings → Language) still win over the defaults in ``overrides.json``.

Nothing is half-installed: every file is first written next to its target as a temporary file, and
only when all of them are written are they moved into place; any failure (a read-only prefix, a
prefix that is a file, a full disk) removes the temporary files and the folders made for them and ends
in a bilingual message. An existing ``jupyter_server_config.json`` that cannot be merged (not JSON,
empty of an object, a list, binary, or a section such as ``"LabApp": null`` that is not an object) is
copied to ``jupyter_server_config.json.bak`` before the new file replaces it, and the command says so.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from helpers.runtime.errors import HelpersError
from helpers.runtime.outputs import backup_file

HERE = Path(__file__).resolve().parent / "lab"
FONT = Path(__file__).resolve().parents[1] / "viz" / "fonts" / "NotoSansSC-Subset.otf"
CONFIG_NAME = "jupyter_server_config.json"
MAX_CONFIG_BYTES = 4 * 2**20  # a server config is a few hundred bytes; a bigger one is not merged
TODO = "请确认 --prefix 是一个可写的环境文件夹 (a writable environment folder)，例如 python -m helpers.tools.labsetup --prefix .venv。"


def _refusal(what: str) -> HelpersError:
    return HelpersError(f"无法设置 JupyterLab (labsetup failed)：{what}。什么也没有改动 (nothing changed)。{TODO}")


def read_server_config(path: Path) -> tuple[dict, str]:
    """The existing server config as a dict to merge into, and why it must be backed up ("" = it need not).

    Missing or blank: {}. Not JSON, binary, too big, or not an object: {} and a reason (the file is kept
    as a backup). Sections this command sets (``LabApp``, ``ServerApp``, its ``tornado_settings``) that
    are not objects are replaced by objects, with a reason."""
    if not os.path.lexists(path):
        return {}, ""
    if path.is_dir():
        raise _refusal(f"{path} 是一个文件夹，不是配置文件 (a folder, not a config file)")
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            return {}, f"太大，不像配置文件 (too large: {path.stat().st_size} bytes)"
        data = path.read_bytes()
    except OSError as exc:
        raise _refusal(f"无法读取 (cannot read) {path}：{exc.strerror or type(exc).__name__}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return {}, "不是文本，而是二进制内容 (binary, not UTF-8 text)"
    if not text.strip():
        return {}, ""
    try:
        config = json.loads(text)
    except (ValueError, RecursionError):
        return {}, "不是合法的 JSON (not valid JSON)"
    if not isinstance(config, dict):
        return {}, f"顶层不是 JSON 对象，而是 {type(config).__name__} (top level is not a JSON object)"
    why = []
    for section in ("LabApp", "ServerApp"):
        if not isinstance(config.get(section, {}), dict):
            why.append(f'"{section}": {json.dumps(config[section])[:40]}')
            config[section] = {}
    server = config.setdefault("ServerApp", {})
    if not isinstance(server.get("tornado_settings", {}), dict):
        why.append(f'"ServerApp.tornado_settings": {json.dumps(server["tornado_settings"])[:40]}')
        server["tornado_settings"] = {}
    reason = f"其中 {', '.join(why)} 不是对象 (not a JSON object)，已换成对象" if why else ""
    return config, reason


def _plan(prefix: Path, notes: list) -> dict[Path, bytes]:
    """target -> bytes of every file to write (reads only; nothing is written yet)."""
    settings = prefix / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    custom = prefix / "etc" / "jupyter" / "custom"
    server = prefix / "etc" / "jupyter" / CONFIG_NAME
    config, reason = read_server_config(server)
    if reason:
        notes.append(("backup", server, reason))
    config.setdefault("LabApp", {})["custom_css"] = True
    config.setdefault("ServerApp", {}).setdefault("tornado_settings", {})["static_custom_path"] = \
        [str(custom.resolve())]
    return {
        settings: (HERE / "overrides.json").read_bytes(),
        custom / "custom.css": (HERE / "custom.css").read_bytes(),
        custom / FONT.name: FONT.read_bytes(),
        server: (json.dumps(config, indent=2) + "\n").encode("utf-8"),
    }


def _write_temp(target: Path, data: bytes) -> Path:
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o644)
    return Path(tmp)


def install(prefix: Path, notes: list | None = None) -> list[Path]:
    """Write the settings, custom CSS, font and server config into ``prefix``; return the files written.

    All or nothing (see the module docstring). ``notes`` (a list) receives a bilingual line per backup
    made of a server config that could not be merged. Raises ``HelpersError`` when nothing could be done."""
    prefix = Path(prefix)
    notes = [] if notes is None else notes
    for folder in (prefix, *prefix.parents):
        if os.path.lexists(folder):
            if not folder.is_dir():
                raise _refusal(f"{folder} 是一个文件，不是环境文件夹 (a file, not a folder)")
            break
    found: list = []
    plan = _plan(prefix, found)
    made: list[Path] = []  # folders this call created (removed again on failure)
    temps: list[tuple[Path, Path]] = []
    try:
        for target in plan:
            missing = []
            for folder in (target.parent, *target.parent.parents):
                if folder.is_dir():
                    break
                missing.append(folder)
            for folder in reversed(missing):
                folder.mkdir()
                made.append(folder)
        for target, data in plan.items():
            temps.append((_write_temp(target, data), target))
        for _, server, reason in found:
            backup = backup_file(server)
            notes.append(f"注意 (note)：原来的 {server.name} {reason}，无法合并 (could not be merged)；"
                         f"已备份为 (backed up to) {backup}。新文件含本项目的设置；需要的旧设置请从备份拷回。")
        for tmp, target in temps:
            os.replace(tmp, target)
    except (OSError, HelpersError) as exc:
        for tmp, _ in temps:
            try:
                tmp.unlink()
            except OSError:
                pass
        for folder in reversed(made):
            try:
                folder.rmdir()
            except OSError:
                pass
        if isinstance(exc, HelpersError):
            raise
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        raise _refusal(f"无法写入 (cannot write){where}：{exc.strerror or type(exc).__name__}") from None
    return list(plan)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prefix", type=Path, default=Path(sys.prefix), help="environment (default: this one)")
    args = parser.parse_args(argv)
    notes: list[str] = []
    try:
        written = install(args.prefix, notes)
    except HelpersError as exc:
        print(exc, file=sys.stderr)
        return 1
    for note in notes:
        print(note, file=sys.stderr)
    for path in written:
        print(f"已写入 (written) {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
