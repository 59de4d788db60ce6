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
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "lab"
FONT = Path(__file__).resolve().parents[1] / "viz" / "fonts" / "NotoSansSC-Subset.otf"
CONFIG_NAME = "jupyter_server_config.json"


def install(prefix: Path) -> list[Path]:
    """Write the settings, custom CSS, font and server config into ``prefix``; return the files written."""
    settings = prefix / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    custom = prefix / "etc" / "jupyter" / "custom"
    server = prefix / "etc" / "jupyter" / CONFIG_NAME
    for folder in (settings.parent, custom, server.parent):
        folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(HERE / "overrides.json", settings)
    shutil.copyfile(HERE / "custom.css", custom / "custom.css")
    shutil.copyfile(FONT, custom / FONT.name)
    config = json.loads(server.read_text(encoding="utf-8")) if server.exists() else {}
    config.setdefault("LabApp", {})["custom_css"] = True
    config.setdefault("ServerApp", {}).setdefault("tornado_settings", {})["static_custom_path"] = [str(custom.resolve())]
    server.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return [settings, custom / "custom.css", custom / FONT.name, server]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prefix", type=Path, default=Path(sys.prefix), help="environment (default: this one)")
    args = parser.parse_args(argv)
    for path in install(args.prefix):
        print(f"已写入 (written) {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
