"""The companion website: the committed, executed notebooks as a static, offline site (``make site``).

``python -m helpers.tools.site [--out BUILD_DIR]`` (default ``site/_build``, ignored by git):

1. stages ``BUILD_DIR/src``: the Sphinx sources of ``site/`` (conf.py, index.md, CSS, JS, the player
   extension), the committed notebooks (never executed), the bundled Chinese font and a local
   MathJax 3 copy (from the PyPI package ``sphinx-mathjax-offline``);
2. renders the kernel-free frames of the 05a / 07a widgets from the shipped models
   (``helpers.tools.frames``) into ``src/_static/frames``, and the in-page translator's models
   (``helpers.tools.webmodels``) into ``src/_static/translator``;
3. runs Sphinx (myst-nb, sphinx-book-theme) into ``BUILD_DIR/html``, warnings being errors;
4. checks the size (at most ``SIZE_LIMIT_MB``) and prints pages, size and build time.

It deletes nothing it did not build: a build folder carries a stamp file (``.helpers-build``,
``helpers.runtime.outputs``), and ``src/`` / ``html/`` of a folder without it are never cleared (the default
``site/_build`` is the project's own). ``--out`` may not be a file, lie inside ``site/`` (the sources
would copy themselves), or be the repository, the home folder or any folder above ``site/``.

The navigation is not written by hand: ``nav_toctrees`` puts every committed notebook into the landing
page's toctrees, labelled from its file name prefix (``00``, ``05a`` …), the book section that number
mirrors and the notebook's own title, so a new or split notebook appears numbered like the others.

Open ``BUILD_DIR/html/index.html`` by double-click, or serve it:
``python -m http.server -d site/_build/html`` and visit http://127.0.0.1:8000.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

from helpers.runtime.errors import HelpersError
from helpers.runtime.outputs import check_build_folder, stamp_build_folder

__all__ = ["BOOK_SECTIONS", "DEFAULT_BUILD_DIR", "SIZE_LIMIT_MB", "build_site", "check_build_dir", "folder_size", "main",
           "nav_label", "nav_toctrees", "stage_sources"]

ROOT = Path(__file__).resolve().parents[2]
SITE_SOURCES = ROOT / "site"
NOTEBOOKS = ROOT / "notebooks"
FONT_DIR = ROOT / "helpers" / "viz" / "fonts"
DEFAULT_BUILD_DIR = SITE_SOURCES / "_build"
SIZE_LIMIT_MB = 40
OWNER = "helpers.tools.site"  # the stamp that marks a build folder as this command's
BUILD_PARTS = ("src", "html", "doctrees")  # what a build writes into its folder
# the parts of MathJax 3 that tex-chtml.js loads (the combined component plus its web fonts)
MATHJAX_FILES = ("tex-chtml.js", "output/chtml/fonts/woff-v2")
MATHJAX_NOTE = """MathJax 3 (Apache License 2.0, https://www.mathjax.org), the files that tex-chtml.js loads,
copied at build time from the PyPI package sphinx-mathjax-offline=={version}.
"""


# the book section each notebook number mirrors (05a and 05b both mirror 9.10.3 part 2)
BOOK_SECTIONS = {"01": "9.10 引言", "02": "9.10.1", "03": "9.10.2", "04": "9.10.3 ①", "05": "9.10.3 ②"}
NAV_MARKER = "<!-- nav_toctrees -->"  # where site/index.md gets the generated toctrees
_PREFIX = re.compile(r"^(\d\d)([a-z]?)_")


def _prefix(stem: str) -> tuple[str, str]:
    """("05", "05a") for "05a_computation": the number and the whole prefix of a notebook file name."""
    match = _PREFIX.match(stem)
    if match is None:
        raise HelpersError(f"笔记本文件名应以两位编号开头 (notebook name must start with a number)，"
                           f"例如 05a_computation.ipynb，实际 (got) {stem!r}。")
    return match.group(1), match.group(1) + match.group(2)


def _title(path: Path) -> str:
    """The notebook's first heading without its leading number and its English part in （…）."""
    import nbformat

    nb = nbformat.read(str(path), as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    words = line[2:].strip().split(maxsplit=1)
                    text = words[1] if len(words) > 1 and _PREFIX.match(words[0] + "_") else line[2:].strip()
                    return re.split(r"\s*[（(]", text, maxsplit=1)[0].strip(" —·-")
    return path.stem


def nav_label(stem: str, title: str) -> str:
    """The navigation label: "05a · 9.10.3 ② · 注意力的计算流程" (number, book section, title)."""
    number, prefix = _prefix(stem)
    section = BOOK_SECTIONS.get(number)
    return " · ".join(part for part in (prefix, section, title) if part)


def nav_toctrees(notebooks: Path = NOTEBOOKS) -> str:
    """The landing page's toctrees (MyST) for every notebook in ``notebooks`` and its solutions/."""
    groups: dict[str, list[str]] = {"准备": [], "教材 9.10 注意力机制": [], "配套实验": [], "练习参考答案": []}
    titles = {}
    for path in sorted(Path(notebooks).glob("*.ipynb")):
        number, _ = _prefix(path.stem)
        titles[path.stem] = _title(path)
        group = "准备" if number == "00" else "教材 9.10 注意力机制" if number in BOOK_SECTIONS else "配套实验"
        groups[group].append(f"{nav_label(path.stem, titles[path.stem])} <{path.stem}>")
    for path in sorted((Path(notebooks) / "solutions").glob("*.ipynb")):
        main = path.stem.removesuffix("_solutions")
        _, prefix = _prefix(path.stem)
        groups["练习参考答案"].append(f"{prefix} · {titles.get(main) or _title(path)} <solutions/{path.stem}>")
    blocks = [f"```{{toctree}}\n:caption: {caption}\n:maxdepth: 1\n\n" + "\n".join(entries) + "\n```"
              for caption, entries in groups.items() if entries]
    return "\n\n".join(blocks) + "\n"


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


def check_build_dir(build_dir) -> Path:
    """``build_dir`` resolved, after refusing what must never be built into (see the module docstring)."""
    build_dir = Path(build_dir).expanduser().resolve()
    todo = "请用 --out 指定一个新的或空的文件夹 (a new or empty folder)，例如 --out site/_build 或 --out /tmp/site。"
    for folder in (build_dir, *build_dir.parents):
        if folder.exists() and not folder.is_dir():
            what = "是一个文件" if folder == build_dir else f"的上级 {folder} 是一个文件"
            raise HelpersError(f"--out {build_dir} {what}，不是文件夹 (a file, not a folder)。{todo}")
        if folder.exists():
            break
    default = DEFAULT_BUILD_DIR.resolve()
    sources = SITE_SOURCES.resolve()
    if build_dir != default and default not in build_dir.parents:
        if build_dir == sources or sources in build_dir.parents:
            raise HelpersError(f"--out {build_dir} 在网站源文件夹 site/ 里面 (inside the site sources)："
                               f"下一次构建会把它当作源文件复制进去。{todo}")
        try:
            home = Path.home().resolve()
        except (RuntimeError, KeyError):  # no home folder known
            home = ROOT.resolve()
        if build_dir in (ROOT.resolve(), home) or build_dir in sources.parents:
            raise HelpersError(f"--out {build_dir} 是仓库、主文件夹或 site/ 的上级文件夹 "
                               f"(the repository, the home folder or a folder above site/)，不能用作构建文件夹。{todo}")
    return build_dir


def prepare_build_dir(build_dir: Path) -> None:
    """Stamp ``build_dir`` as this command's, after making sure that what it will clear is its own."""
    if build_dir != DEFAULT_BUILD_DIR.resolve():  # site/_build is ignored by git: the project's own folder
        check_build_folder(build_dir, OWNER, BUILD_PARTS)
    stamp_build_folder(build_dir, OWNER)


def stage_sources(src: Path) -> None:
    """Fill ``src`` with everything Sphinx reads: site/, the notebooks, the font and MathJax.

    An existing ``src`` is cleared first, only when its folder carries this command's stamp."""
    if src.exists():
        check_build_folder(src.parent, OWNER, (src.name,))
        shutil.rmtree(src)
    shutil.copytree(SITE_SOURCES, src, ignore=shutil.ignore_patterns("_build", "__pycache__"))
    index = (src / "index.md").read_text(encoding="utf-8")
    if NAV_MARKER not in index:
        raise HelpersError(f"site/index.md 缺少导航标记 (navigation marker missing)：{NAV_MARKER}")
    (src / "index.md").write_text(index.replace(NAV_MARKER, nav_toctrees(NOTEBOOKS)), encoding="utf-8")
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
    from helpers.tools.webmodels import write_web_models

    start = time.perf_counter()
    build_dir = check_build_dir(build_dir)
    try:
        prepare_build_dir(build_dir)
    except OSError as exc:
        raise HelpersError(f"无法建立构建文件夹 (cannot create the build folder) {build_dir}："
                           f"{exc.strerror or type(exc).__name__}。请检查写入权限 (write permission)，"
                           "或用 --out 换一个文件夹。") from None
    src, html = build_dir / "src", build_dir / "html"
    stage_sources(src)
    counts = write_frames(src / "_static" / "frames") if frames else {}
    write_web_models(src / "_static" / "translator")  # the in-page translator's models (helpers.tools.webmodels)
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
    except OSError as err:  # a folder that became unwritable, a full disk, ...
        print(f"网站构建失败 (site build failed)：{err.strerror or type(err).__name__}"
              f"{' (' + str(err.filename) + ')' if err.filename else ''}。请检查磁盘空间和写入权限 "
              "(disk space, write permission)，或用 --out 换一个文件夹。", file=sys.stderr)
        return 1
    frames = result["frames"]
    print(f"网站已生成 (site built)：{result['html'] / 'index.html'}\n"
          f"  {len(result['pages'])} 页，{result['size_mb']} MB，用时 {result['seconds']} s"
          f"（其中帧 {frames.get('step', 0)} + {frames.get('explorer', 0)} 张，{frames.get('seconds', 0)} s）\n"
          f"  打开方式 (open)：双击 index.html，或 python -m http.server -d {args.out / 'html'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
