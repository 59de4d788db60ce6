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
``site/_build`` is the project's own, when it is a real folder). ``--out`` may be a new folder, an empty
one or a stamped one; it may not be a file, a non-empty folder without the stamp, a symlink whose target
has no stamp (a symlinked ``site/_build`` included: the path is resolved and the target checked), lie
inside ``site/`` (the sources would copy themselves), or be, lie inside or contain the repository's own
folders (``SOURCE_FOLDERS``: helpers/, notebooks/, .git/ …), the home folder or a system folder
(``SYSTEM_FOLDERS``: /etc, /usr …). A symlinked ``src/`` or ``html/`` inside a build folder is not followed.

The navigation is not written by hand: ``nav_toctrees`` puts every committed notebook into the landing
page's toctrees, labelled from its file name prefix (``00``, ``05a`` …), the book section that number
mirrors and the notebook's own title, so a new or split notebook appears numbered like the others.

Open ``BUILD_DIR/html/index.html`` by double-click, or serve it:
``python -m http.server -d site/_build/html`` and visit http://127.0.0.1:8000.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

from helpers.runtime.errors import HelpersError
from helpers.runtime.outputs import STAMP_NAME, check_build_folder, stamp_build_folder

__all__ = ["BOOK_SECTIONS", "DEFAULT_BUILD_DIR", "SIZE_LIMIT_MB", "build_site", "check_build_dir", "clear_build_part",
           "folder_size", "main", "nav_label", "nav_toctrees", "prepare_build_dir", "stage_sources"]

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


# the repository's own folders: --out may not be one of them, lie inside one, or contain one
SOURCE_FOLDERS = ("helpers", "notebooks", "tests", "site", "docs", "scripts", ".ci", ".git", ".venv")
# the operating system's folders (those that exist on this machine count): same rule
SYSTEM_FOLDERS = ("/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/run", "/sbin",
                  "/sys", "/usr", "/var/lib", "/var/log", "/var/cache", "/var/spool", "/System", "/Library",
                  "/Applications", "/private/etc", "/private/var/db")
_TODO = "请用 --out 指定一个新的或空的文件夹 (a new or empty folder)，例如 --out site/_build 或 --out /tmp/site。"


def _system_folders() -> list[Path]:
    import os

    folders = [Path(p) for p in SYSTEM_FOLDERS]
    folders += [Path(os.environ[k]) for k in ("SystemRoot", "ProgramFiles", "ProgramFiles(x86)", "ProgramData")
                if os.environ.get(k)]  # Windows
    return [p.resolve() for p in folders if p.exists()]


def _overlaps(a: Path, b: Path) -> bool:
    """``a`` is ``b``, lies inside it, or contains it."""
    return a == b or b in a.parents or a in b.parents


def _stamped(folder: Path) -> bool:
    stamp = folder / STAMP_NAME
    try:
        return stamp.is_file() and not stamp.is_symlink() and \
            stamp.read_text(encoding="utf-8", errors="replace").strip() == OWNER
    except OSError:
        return False


def _is_default(build_dir: Path) -> bool:
    """``build_dir`` (resolved) is the project's own ``site/_build``: a real folder, not a symlink to elsewhere."""
    return build_dir == DEFAULT_BUILD_DIR.parent.resolve() / DEFAULT_BUILD_DIR.name and \
        not DEFAULT_BUILD_DIR.is_symlink()


def check_build_dir(build_dir) -> Path:
    """``build_dir`` resolved, after refusing what must never be built into (see the module docstring):
    a file; a symlink whose target does not carry this command's stamp; the repository, its source folders
    (``SOURCE_FOLDERS``), the home folder, or a system folder (``SYSTEM_FOLDERS``), or any folder inside one
    or containing one (only ``site/_build`` and folders inside it are allowed in ``site/``)."""
    given = Path(os.path.abspath(Path(build_dir).expanduser()))
    build_dir = given.resolve()
    for folder in (build_dir, *build_dir.parents):
        if folder.exists() and not folder.is_dir():
            what = "是一个文件" if folder == build_dir else f"的上级 {folder} 是一个文件"
            raise HelpersError(f"--out {build_dir} {what}，不是文件夹 (a file, not a folder)。{_TODO}")
        if folder.exists():
            break
    if given.is_symlink() and not _stamped(build_dir):
        raise HelpersError(f"--out {given} 是一个符号链接 (symlink)，指向 {build_dir}，那里没有构建标记文件 {STAMP_NAME} "
                           f"(the link's target is not a build folder)。为了不删除别处的文件，不会通过符号链接构建或清空。"
                           f"请删除这个链接，或用 --out 直接给出一个新的或空的文件夹 (a new or empty folder)。")
    default = DEFAULT_BUILD_DIR.parent.resolve() / DEFAULT_BUILD_DIR.name
    sources = SITE_SOURCES.resolve()
    inside_default = build_dir == default or default in build_dir.parents
    if inside_default and DEFAULT_BUILD_DIR.is_symlink() and not _stamped(DEFAULT_BUILD_DIR.resolve()):
        raise HelpersError(f"site/_build 是一个符号链接 (symlink)，指向 {DEFAULT_BUILD_DIR.resolve()}，那里没有构建标记文件 "
                           f"{STAMP_NAME} (the link's target is not a build folder)。为了不删除那里的 src/、html/，"
                           f"这里什么也不会清空。请删除 site/_build 这个链接后重新构建，或用 --out 换一个文件夹。")
    if inside_default:
        return build_dir
    if build_dir == sources or sources in build_dir.parents:
        raise HelpersError(f"--out {build_dir} 在网站源文件夹 site/ 里面 (inside the site sources)："
                           f"下一次构建会把它当作源文件复制进去。{_TODO}")
    try:
        home = Path.home().resolve()
    except (RuntimeError, KeyError):  # no home folder known
        home = ROOT.resolve()
    root = ROOT.resolve()
    if build_dir in (root, home) or build_dir in sources.parents or build_dir in home.parents:
        raise HelpersError(f"--out {build_dir} 是仓库、主文件夹或它们的上级文件夹 "
                           f"(the repository, the home folder or a folder above them)，不能用作构建文件夹。{_TODO}")
    for name in SOURCE_FOLDERS:
        if _overlaps(build_dir, root / name):
            raise HelpersError(f"--out {build_dir} 是仓库的源文件夹 {name}/，或在它里面、或包含它 "
                               f"(the repository's own folder {name}/, inside it or containing it)，"
                               f"不能用作构建文件夹，以免覆盖或删除项目文件。{_TODO}")
    for folder in _system_folders():
        if _overlaps(build_dir, folder):
            raise HelpersError(f"--out {build_dir} 是系统文件夹 {folder}，或在它里面、或包含它 "
                               f"(a system folder, inside it or containing it)，不能用作构建文件夹。{_TODO}")
    return build_dir


def prepare_build_dir(build_dir: Path) -> None:
    """Stamp ``build_dir`` as this command's, after making sure that what it will clear is its own: a
    folder that carries the stamp, a new or empty folder, or the project's own ``site/_build`` (ignored
    by git; an older build there has no stamp). A non-empty folder without the stamp is refused."""
    if not _is_default(build_dir):
        stamped = check_build_folder(build_dir, OWNER, BUILD_PARTS)  # refuses a user's src/ or html/
        try:
            entries = sorted(p.name for p in build_dir.iterdir()) if build_dir.is_dir() else []
        except OSError:
            entries = []
        if not stamped and entries:
            shown = ", ".join(entries[:3]) + (" …" if len(entries) > 3 else "")
            raise HelpersError(f"--out {build_dir} 不是空文件夹 (not empty: {shown})，也没有构建标记文件 {STAMP_NAME} "
                               f"(not a build folder made by {OWNER})。为了不覆盖你的文件，不会在这里构建。{_TODO}")
    stamp_build_folder(build_dir, OWNER)


def clear_build_part(part: Path) -> None:
    """Delete ``part`` (``src``, ``html``) of a stamped build folder; a symlink there is never followed."""
    if part.is_symlink():
        raise HelpersError(f"构建文件夹里的 {part.name} 是一个符号链接 (symlink)，指向 {part.resolve()}。"
                           f"为了不删除别处的文件，不会清空它。请删除这个链接 ({part}) 后重新构建。")
    if part.exists():
        check_build_folder(part.parent, OWNER, (part.name,))
        shutil.rmtree(part)


def stage_sources(src: Path) -> None:
    """Fill ``src`` with everything Sphinx reads: site/, the notebooks, the font and MathJax.

    An existing ``src`` is cleared first, only when its folder carries this command's stamp."""
    clear_build_part(src)
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
    clear_build_part(html)
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
