"""Sphinx configuration of the companion website (built by ``make site``, i.e. ``python -m helpers.tools.site``).

The build copies this folder, the committed notebooks, the bundled font, a MathJax copy and the
precomputed widget frames into a staging folder and runs Sphinx there; nothing is executed
(``nb_execution_mode = "off"``) and nothing is fetched from outside the site at view time.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

project = "9.10 注意力机制 · 配套笔记本"
author = "9.10 companion notebooks contributors"
copyright = "代码 MIT，正文与图 CC BY-SA 4.0"
language = "zh_CN"

extensions = ["myst_nb", "sphinx.ext.mathjax", "frame_players", "search_zh", "math_tags", "page_texts"]
root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
suppress_warnings = ["mystnb.unknown_mime_type"]

# --- notebooks: render the committed outputs as they are -------------------------------------------
nb_execution_mode = "off"
myst_enable_extensions = ["dollarmath", "amsmath"]
# text/markdown outputs (the tables notebooks print with `display(Markdown(...))`) are parsed as MyST, whose
# tables render as <table>; myst-nb's default ("commonmark") has no tables and shows the raw | lines
nb_render_markdown_format = "myst"
myst_heading_anchors = 3
nb_ipywidgets_js = {}  # no require.js / widget manager from a CDN: the site has its own players
# widget views cannot render without a kernel: show each widget's static PNG instead
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]

# --- math: a local MathJax 3 copy (the build puts it under _static/mathjax) --------------------------
mathjax_path = "mathjax/tex-chtml.js"
mathjax3_config = {"tex": {"tags": "none"}, "options": {"enableMenu": False}}

# --- search: Chinese word splitting (jieba) plus the chapter's terms as whole words -----------------
html_search_language = "zh"
html_search_options = {"dict": str(HERE / "search_terms.txt")}

# --- theme: everything local, no external fonts, icons or analytics --------------------------------
html_theme = "sphinx_book_theme"
html_title = "9.10 注意力机制"
html_favicon = "_static/favicon.svg"  # browsers ask for /favicon.ico otherwise (a 404)
html_static_path = ["_static"]
html_css_files = ["site.css"]
html_js_files = ["frame-player.js", "search-snippets.js"]
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None
html_theme_options = {
    "use_download_button": False,
    "use_fullscreen_button": False,
    "use_repository_button": False,
    "use_source_button": False,
    "use_issues_button": False,
    "use_edit_page_button": False,
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "search_bar_text": "搜索本站…",
    "home_page_in_toc": True,
}

# the notebooks whose widget gets a kernel-free player, after the first code cell that contains `marker`
frame_players = {
    "05a_computation_steps": {"kind": "step", "marker": "StepThrough("},
    "07a_heatmaps": {"kind": "explorer", "marker": "AttentionExplorer("},
}

# light by default (pydata-sphinx-theme logs a console error when no mode is set); the switcher stays
html_context = {"default_mode": "light"}
