"""Search snippets when the site is opened from a file (double-click on index.html, no server).

Sphinx's search page shows a snippet under each result by fetching the result's page and reading the
text of its ``[role="main"]`` element. From ``file://`` a browser refuses that fetch, so every result
came without its snippet. After the build this writes ``_static/page-texts.js``: for every page, its
main element reduced to the markup the snippet reader needs (tags, ids, the ``math`` class and text; no
images, scripts, styles or other attributes), keyed by the page's path from the site root. ``search-snippets.js`` loads it
on the search page only, and only from ``file://``, and answers searchtools' fetch from it.
"""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path

SKIP = {"script", "style", "svg", "noscript", "template"}  # their content is never text a reader sees
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
OUTPUT = "page-texts.js"


class MainText(HTMLParser):
    """Keep the element with role="main": its tags with their ids and its text, nothing else."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.depth = 0  # open elements inside main (main itself is 1); 0 = outside
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.depth == 0:
            if attrs.get("role") == "main" and tag not in VOID:
                self.depth = 1
                self.parts.append(f'<{tag} role="main">')
            return
        if tag in VOID:
            if tag == "br":
                self.parts.append(" ")
            return
        self.depth += 1
        if self.skipping or tag in SKIP:
            self.skipping += 1
            return
        kept = [f'id="{html.escape(attrs["id"])}"'] if attrs.get("id") else []
        if "math" in (attrs.get("class") or "").split():  # search-snippets.js reads formulas by this class
            kept.append('class="math"')
        self.parts.append(f"<{' '.join([tag, *kept])}>")

    def handle_endtag(self, tag):
        if self.depth == 0 or tag in VOID:
            return
        self.depth -= 1
        if self.skipping:
            self.skipping -= 1
            return
        self.parts.append(f"</{tag}>")

    def handle_data(self, data):
        if self.depth and not self.skipping:
            self.parts.append(html.escape(re.sub(r"\s+", " ", data), quote=False))


def main_markup(page: str) -> str:
    """The reduced ``[role="main"]`` element of an HTML page ("" when the page has none)."""
    parser = MainText()
    parser.feed(page)
    parser.close()
    return "".join(parser.parts)


def write_page_texts(outdir: Path) -> Path:
    """Write ``_static/page-texts.js`` for every page under ``outdir``; returns its path."""
    texts = {}
    for page in sorted(outdir.rglob("*.html")):
        key = page.relative_to(outdir).as_posix()
        if key in ("search.html", "genindex.html") or key.startswith("_"):
            continue
        markup = main_markup(page.read_text(encoding="utf-8"))
        if markup:
            texts[key] = markup
    target = outdir / "_static" / OUTPUT
    body = json.dumps(texts, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    target.write_text(f"window.SEARCH_PAGE_TEXTS = {body};\n", encoding="utf-8")
    return target


def _build_finished(app, exception):
    if exception is None and app.builder.format == "html":
        write_page_texts(Path(app.outdir))


def setup(app):
    app.connect("build-finished", _build_finished)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
