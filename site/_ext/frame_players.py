"""Sphinx extension: a kernel-free player for a widget's precomputed frames, placed under the widget's cell.

``conf.py`` names the pages and the frames: ``frame_players = {docname: {"kind": ..., "marker": ...}}``.
For each such page, the player goes right after the first code cell whose source contains ``marker``.
It reads ``_static/frames/<kind>/index.json`` (written by ``python -m helpers.tools.frames``) at build
time and inlines it into the page, so the player works from ``file://`` too (no fetch). The markup
(model picker, sentence picker, step slider, picture, caption) is complete HTML showing step t = 1;
``_static/frame-player.js`` wires the controls. Captions count steps from 1.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from docutils import nodes
from sphinx.util import logging

logger = logging.getLogger(__name__)

TITLES = {
    "step": "不用 Python 也能拨动：逐步解码（预先算好的帧）",
    "explorer": "不用 Python 也能拨动：对齐热力图（预先算好的帧）",
}
NOTE = ("这是网站版：下面的图片是用仓库自带的预训练模型、由上面的控件本身预先画好的，"
        "每个模型、每个例句、每个解码步一张。想输入自己的句子，请在 JupyterLab 里运行笔记本。")


def caption(step: dict, total: int) -> str:
    """The caption of one frame: step t (from 1), the output token and the most attended source word."""
    return (f"第 t = {step['t']} 步（共 {total} 步）：输出 “{step['token']}”，"
            f"权重最大的源词 “{step['source']}”（α = {step['weight']:.2f}）")


def player_html(kind: str, index: dict, prefix: str) -> str:
    """Complete markup of one player showing the first run at t = 1; ``prefix`` leads to the site root."""
    base = f"{prefix}_static/frames/{kind}/"
    run = index["runs"][0]
    first = run["steps"][0]
    models = "".join(f'<option value="{html.escape(m["name"])}">{html.escape(m["label"])}</option>'
                     for m in index["models"])
    sentences = "".join(f'<option value="{k}">{html.escape(s)}</option>' for k, s in enumerate(index["sentences"]))
    data = json.dumps(index, ensure_ascii=False).replace("</", "<\\/")
    n = len(run["steps"])
    return f"""
<section class="frame-player" data-kind="{kind}" data-base="{html.escape(base)}">
  <p class="frame-player-title">{html.escape(TITLES[kind])}</p>
  <p class="frame-player-note">{html.escape(NOTE)}</p>
  <div class="frame-player-controls">
    <label>模型 (model) <select class="frame-model">{models}</select></label>
    <label>例句 (sentence) <select class="frame-sentence">{sentences}</select></label>
    <label>解码步 t <input class="frame-step" type="range" min="1" max="{n}" step="1" value="1">
      <output class="frame-step-value">1</output></label>
  </div>
  <p class="frame-translation">译文：{html.escape(run["translation"])}</p>
  <img class="frame-image" src="{html.escape(base + first['image'])}" alt="{html.escape(caption(first, n))}">
  <p class="frame-caption">{html.escape(caption(first, n))}</p>
  <script type="application/json" class="frame-data">{data}</script>
</section>
"""


def _code_text(cell: nodes.Element) -> str:
    return "\n".join(block.astext() for block in cell.findall(nodes.literal_block)
                     if "cell_input" in block.parent.get("classes", []))


def insert_players(app, doctree) -> None:
    docname = app.env.docname
    spec = app.config.frame_players.get(docname)
    if spec is None:
        return
    kind, marker = spec["kind"], spec["marker"]
    index_path = Path(app.srcdir) / "_static" / "frames" / kind / "index.json"
    if not index_path.is_file():
        logger.warning("frames missing: %s (run python -m helpers.tools.frames)", index_path, location=docname)
        return
    index = json.loads(index_path.read_text(encoding="utf-8"))
    prefix = "../" * docname.count("/")
    for cell in doctree.findall(nodes.container):
        if cell.get("nb_element") == "cell_code" and marker in _code_text(cell):
            cell.parent.insert(cell.parent.index(cell) + 1,
                               nodes.raw("", player_html(kind, index, prefix), format="html"))
            app.env.note_dependency(str(index_path))
            return
    logger.warning("no code cell containing %r: player for %s not placed", marker, kind, location=docname)


def setup(app):
    app.add_config_value("frame_players", {}, "env")
    app.connect("doctree-read", insert_players)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
