"""Regenerate the bundled Chinese font subset ``helpers/viz/fonts/NotoSansSC-Subset.otf``.

Why a subset: the full Noto Sans CJK SC is 16 MB; classrooms need only the common simplified
characters. The subset keeps every GB2312 character (6,763 hanzi, levels 1 and 2), CJK and
full-width punctuation, ASCII, and every CJK character that appears anywhere in this repository's
helpers/, notebooks/ and README, so any label we draw renders.

Source (a package registry, never a web download at run time):
  Noto Sans CJK SC Regular 1.004 (SIL Open Font License 1.1), as shipped in the PyPI wheel
  ``mplfonts==0.0.11`` (file ``mplfonts/fonts/NotoSansCJKsc-Regular.otf``).
The OFL text in helpers/viz/fonts/OFL.txt comes from the PyPI wheel ``fontpkg-noto-sans==2.15``.

Usage (needs network access to PyPI and ``pip install fonttools``):
    python scripts/build_font.py                # downloads the wheel into a temp dir
    python scripts/build_font.py --otf PATH     # or use an already extracted NotoSansCJKsc-Regular.otf
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "helpers" / "viz" / "fonts" / "NotoSansSC-Subset.otf"
FAMILY = "Noto Sans SC Subset"
WHEEL = "mplfonts==0.0.11"
MEMBER = "mplfonts/fonts/NotoSansCJKsc-Regular.otf"


def gb2312_chars() -> set[str]:
    chars = set()
    for hi in range(0xA1, 0xF8):
        for lo in range(0xA1, 0xFF):
            try:
                chars.add(bytes([hi, lo]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return chars


def repo_cjk_chars() -> set[str]:
    pattern = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")
    chars = set()
    for folder in ("helpers", "notebooks", "tests", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in {".py", ".ipynb", ".md", ".json"} and path.is_file():
                chars.update(pattern.findall(path.read_text(encoding="utf-8", errors="ignore")))
    chars.update(pattern.findall((ROOT / "README.md").read_text(encoding="utf-8", errors="ignore")))
    return chars


def fetch_otf(tmp: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(tmp), WHEEL], check=True
    )
    wheel = next(tmp.glob("mplfonts-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        z.extract(MEMBER, tmp)
    return tmp / MEMBER


def build(otf: Path) -> None:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    text = set(map(chr, range(0x20, 0x7F))) | gb2312_chars() | repo_cjk_chars()
    text |= set(map(chr, range(0x3000, 0x3040))) | set(map(chr, range(0xFF01, 0xFF5F)))
    text |= set("·—‘’“”…※→←↑↓αβγδθλμσΣ√×÷±≈≠≤≥")
    options = subset.Options()
    options.hinting = False
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.desubroutinize = False
    font = TTFont(str(otf))
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(text)))
    subsetter.subset(font)
    for record in font["name"].names:
        if record.nameID in (1, 4, 16):
            record.string = FAMILY
        elif record.nameID == 6:
            record.string = "NotoSansSC-Subset"
        elif record.nameID == 3:
            record.string = "NotoSansSC-Subset;built by scripts/build_font.py"
    font["CFF "].cff.fontNames = ["NotoSansSC-Subset"]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(OUT))
    print(f"wrote {OUT.relative_to(ROOT)}: {OUT.stat().st_size / 1e6:.2f} MB, {len(text)} code points requested")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--otf", type=Path, help="an extracted NotoSansCJKsc-Regular.otf (skips the download)")
    args = parser.parse_args()
    if args.otf:
        build(args.otf)
        return
    with tempfile.TemporaryDirectory() as tmp:
        build(fetch_otf(Path(tmp)))


if __name__ == "__main__":
    main()
