"""The companion website: the committed, executed notebooks as a static, offline site (``make site``).

``python -m helpers.tools.site [--out BUILD_DIR]`` (default ``site/_build``, ignored by git):

1. stages ``BUILD_DIR/src``: the Sphinx sources of ``site/`` (conf.py, index.md, CSS, JS, the player
   extension), the committed notebooks (never executed), the bundled Chinese font and a local
   MathJax 3 copy (from the PyPI package ``sphinx-mathjax-offline``);
2. renders the kernel-free frames of the 05 / 07 widgets from the shipped models
   (``helpers.tools.frames``) into ``src/_static/frames``;
3. runs Sphinx (myst-nb, sphinx-book-theme) into ``BUILD_DIR/html``, warnings being errors;
4. checks the size (at most ``SIZE_LIMIT_MB``) and prints pages, size and build time.

Open ``BUILD_DIR/html/index.html`` by double-click, or serve it:
``python -m http.server -d site/_build/html`` and visit http://127.0.0.1:8000.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

from helpers.errors import HelpersError

__all__ = ["DEFAULT_BUILD_DIR", "SIZE_LIMIT_MB", "build_site", "folder_size", "main", "stage_sources"]

ROOT = Path(__file__).resolve().parents[2]
SITE_SOURCES = ROOT / "site"
NOTEBOOKS = ROOT / "notebooks"
FONT_DIR = ROOT / "helpers" / "viz" / "fonts"
DEFAULT_BUILD_DIR = SITE_SOURCES / "_build"
SIZE_LIMIT_MB = 30
# the parts of MathJax 3 that tex-chtml.js loads (the combined component plus its web fonts)
MATHJAX_FILES = ("tex-chtml.js", "output/chtml/fonts/woff-v2")
MATHJAX_NOTE = """MathJax 3 (Apache License 2.0, https://www.mathjax.org), the files that tex-chtml.js loads,
copied at build time from the PyPI package sphinx-mathjax-offline=={version}.
"""


def folder_size(folder: Path) -> int:
    """Total size in bytes of the files under ``folder``."""
    return sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file())


def _mathjax_dir() -> tuple[Path, str]:
    try:
        dist = metadata.distribution("sphinx-mathjax-offline")
    except metadata.PackageNotFoundError:
        raise HelpersError("缺少 MathJax (sphinx-mathjax-offline not installed)：请运行 "
                           "pip install -r requirements.txt（或 make site）。") from None
    return Path(dist.locate_file("sphinx-mathjax-offline/static/mathjax")), dist.version


def stage_sources(src: Path) -> None:
    """Fill ``src`` with everything Sphinx reads: site/, the notebooks, the font and MathJax."""
    if src.exists():
        shutil.rmtree(src)
    shutil.copytree(SITE_SOURCES, src, ignore=shutil.ignore_patterns("_build", "__pycache__"))
    for notebook in sorted(NOTEBOOKS.glob("*.ipynb")):
        shutil.copy2(notebook, src / notebook.name)
    (src / "solutions").mkdir()
    for notebook in sorted((NOTEBOOKS / "solutions").glob("*.ipynb")):
        shutil.copy2(notebook, src / "solutions" / notebook.name)
    fonts = src / "_static" / "fonts"
    fonts.mkdir(parents=True)
    for name in ("NotoSansSC-Subset.otf", "OFL.txt"):
        shutil.copy2(FONT_DIR / name, fonts / name)
    mathjax, version = _mathjax_dir()
    target = src / "_static" / "mathjax"
    for name in MATHJAX_FILES:
        if (mathjax / name).is_dir():
            shutil.copytree(mathjax / name, target / name)
        else:
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(mathjax / name, target / name)
    (target / "README.txt").write_text(MATHJAX_NOTE.format(version=version), encoding="utf-8")


def build_site(build_dir: Path = DEFAULT_BUILD_DIR, frames: bool = True) -> dict:
    """Stage, render the frames, run Sphinx; returns {"html", "pages", "size_mb", "seconds", "frames"}.

    Raises ``HelpersError`` when Sphinx fails (its output is in the message) or the site is too big."""
    from helpers.tools.frames import write_frames

    start = time.perf_counter()
    build_dir = Path(build_dir).resolve()
    src, html = build_dir / "src", build_dir / "html"
    stage_sources(src)
    counts = write_frames(src / "_static" / "frames") if frames else {}
    if html.exists():
        shutil.rmtree(html)
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going",
               "-d", str(build_dir / "doctrees"), str(src), str(html)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise HelpersError(f"网站构建失败 (site build failed, sphinx exit {done.returncode})：\n"
                           f"{done.stdout[-4000:]}\n{done.stderr[-6000:]}")
    size_mb = folder_size(html) / 2**20
    if size_mb > SIZE_LIMIT_MB:
        raise HelpersError(f"网站太大 (site too large)：{size_mb:.1f} MB，上限 {SIZE_LIMIT_MB} MB。"
                           "请减少 helpers/tools/frames.py 里的例句或模型。")
    pages = sorted(p.relative_to(html).as_posix() for p in html.rglob("*.html")
                   if p.name not in ("genindex.html", "search.html"))
    return {"html": html, "pages": pages, "size_mb": round(size_mb, 1),
            "seconds": round(time.perf_counter() - start, 1), "frames": counts}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m helpers.tools.site", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_BUILD_DIR, help="build folder (default site/_build)")
    args = parser.parse_args(argv)
    try:
        result = build_site(args.out)
    except HelpersError as err:
        print(err, file=sys.stderr)
        return 1
    frames = result["frames"]
    print(f"网站已生成 (site built)：{result['html'] / 'index.html'}\n"
          f"  {len(result['pages'])} 页，{result['size_mb']} MB，用时 {result['seconds']} s"
          f"（其中帧 {frames.get('step', 0)} + {frames.get('explorer', 0)} 张，{frames.get('seconds', 0)} s）\n"
          f"  打开方式 (open)：双击 index.html，或 python -m http.server -d {args.out / 'html'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
