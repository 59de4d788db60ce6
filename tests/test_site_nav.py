"""The website's navigation is derived from the notebook files: every entry carries its file's number
prefix (00, 05a, …) and, for the chapter's notebooks, the book section; nothing is listed by hand."""

from __future__ import annotations

import re

import nbformat
import pytest

from helpers.tools.site import NOTEBOOKS, nav_label, nav_toctrees


def _write(folder, stem, title):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(f"# {title}\n\n正文。")]
    nbformat.write(nb, str(folder / f"{stem}.ipynb"))


def _entries(toctrees: str) -> list[tuple[str, str]]:
    return re.findall(r"^(.+) <([^>]+)>$", toctrees, flags=re.M)


def test_label_is_prefix_book_section_and_title():
    assert nav_label("02_origins", "注意力的起源") == "02 · 9.10.1 · 注意力的起源"
    assert nav_label("07a_heatmaps", "读注意力热力图") == "07a · 读注意力热力图"
    assert nav_label("05b_masks", "填充掩码") == "05b · 9.10.3 ② · 填充掩码"


def test_every_committed_notebook_and_solution_is_listed_with_its_number():
    entries = _entries(nav_toctrees(NOTEBOOKS))
    stems = [p.stem for p in sorted(NOTEBOOKS.glob("*.ipynb"))]
    stems += [f"solutions/{p.stem}" for p in sorted((NOTEBOOKS / "solutions").glob("*.ipynb"))]
    assert [doc for _, doc in entries] == stems
    for label, doc in entries:
        prefix = doc.removeprefix("solutions/").split("_")[0]
        assert label.startswith(f"{prefix} · "), (label, doc)
        assert "（" not in label and "#" not in label  # the English part of the heading stays on the page


def test_a_split_05_is_numbered_without_any_change(tmp_path):
    # what the coming split of 05 into 05a / 05b will look like: both numbered, both under the book
    _write(tmp_path, "04_framework", "04 注意力计算框架（Framework）")
    _write(tmp_path, "05a_computation", "05a 注意力的计算流程（Computation）")
    _write(tmp_path, "05b_masks_and_variants", "05b 掩码与变体（Masks and Variants）")
    _write(tmp_path, "06_training", "06 训练与比较（Training）")
    (tmp_path / "solutions").mkdir()
    _write(tmp_path / "solutions", "05b_masks_and_variants_solutions", "05b 掩码与变体 — 练习参考答案（Solutions）")
    toctrees = nav_toctrees(tmp_path)
    book = toctrees.split(":caption: 教材 9.10 注意力机制")[1].split("```")[0]
    assert "05a · 9.10.3 ② · 注意力的计算流程 <05a_computation>" in book
    assert "05b · 9.10.3 ② · 掩码与变体 <05b_masks_and_variants>" in book
    assert "06 · 训练与比较 <06_training>" in toctrees.split(":caption: 配套实验")[1]
    assert "05b · 掩码与变体 <solutions/05b_masks_and_variants_solutions>" in toctrees


def test_a_notebook_without_a_number_is_refused(tmp_path):
    _write(tmp_path, "setup", "环境")
    with pytest.raises(ValueError, match="number"):
        nav_toctrees(tmp_path)
