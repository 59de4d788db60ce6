"""The companion website in a real browser: built once from the committed notebooks, served from
127.0.0.1 (and opened from file://), checked page by page in headless Chromium (Debian's package).

The session builds the site with ``python -m helpers.tools.site --out <tmp>`` (what ``make site`` runs:
frames from the shipped models, then Sphinx), so the test checks what a reader gets. Every request
the browser makes is recorded; screenshots go to artifacts/site/. Without Chromium the browser tests
skip with a reason; with REQUIRE_BROWSER=1 (set by .ci/run) they fail instead.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import threading
import urllib.parse
from pathlib import Path

import pytest
from browser_support import (
    CHROMIUM_FLAGS,
    bundled_glyphs,
    bundled_range,
    chromium_or_skip,
    count_in_ranges,
    find_chromium,
    latin_only_fontconfig,
    platform_fonts,
    recording_page,
    running_chromium,
)

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts" / "site"
BOOK_ORDER = ["9.10 引言", "9.10.1", "9.10.2", "9.10.3 ①", "9.10.3 ②"]
PLAYERS = {"05a_computation_steps": "step", "07a_heatmaps": "explorer"}
FONT_FAMILY = "Noto Sans SC Subset"  # the name table of helpers/viz/fonts/NotoSansSC-Subset.otf

pytestmark = pytest.mark.browser  # the whole module needs the built site and (most of it) Chromium


def expected_pages() -> list[str]:
    """One page per committed notebook (solutions in solutions/), plus the landing page."""
    pages = ["index.html"] + [f"{p.stem}.html" for p in sorted((ROOT / "notebooks").glob("*.ipynb"))]
    pages += [f"solutions/{p.stem}.html" for p in sorted((ROOT / "notebooks" / "solutions").glob("*.ipynb"))]
    return pages


def checked_pages() -> list[str]:
    """Every page a reader can reach: the notebooks' pages, the search page and the index."""
    return expected_pages() + ["search.html", "genindex.html"]


# --- fixtures ------------------------------------------------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def server(site):
    """A local http.server (127.0.0.1, free port) serving the site; yields its base URL."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")  # module, not session: another test file may start its own Playwright after this one
def browser():
    with running_chromium(chromium_or_skip()) as chromium:
        yield chromium


@pytest.fixture
def page(browser):
    """A fresh tab that records every request, failed load, console error and uncaught error."""
    with recording_page(browser, 20_000, requests=True) as page:
        yield page


def external(requests: list[str], base: str) -> list[str]:
    return [url for url in requests if not url.startswith((base, "data:", "blob:"))]


def open_page(page, url: str) -> None:
    """Go to url and wait until it, its fonts and (where the page has math) MathJax are done."""
    page.goto(url, wait_until="load")
    page.evaluate("""async () => {
        await document.fonts.ready;
        if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
    }""")


# --- the build ---------------------------------------------------------------------------------------------


def test_site_has_one_page_per_notebook(site):
    missing = [name for name in expected_pages() if not (site / name).is_file()]
    assert missing == []


def test_site_is_under_40_mb(site):
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    assert size < 40 * 2**20, f"site is {size / 2**20:.1f} MB"


def test_every_local_link_and_source_resolves(site):
    pattern = re.compile(r'(?:href|src)="([^"#?]+)[^"]*"')
    broken = []
    pages = [p for p in site.rglob("*.html") if "_static" not in p.relative_to(site).parts]  # not theme templates
    assert len(pages) >= len(expected_pages())
    for page in pages:
        for target in pattern.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, mailto:, data: ... are not files
                continue
            if not (page.parent / urllib.parse.unquote(target)).exists():
                broken.append(f"{page.relative_to(site)} -> {target}")
    assert broken == []


def test_frames_count_steps_from_one_and_end_with_eos(site):
    for kind in PLAYERS.values():
        index = json.loads((site / "_static" / "frames" / kind / "index.json").read_text(encoding="utf-8"))
        assert index["runs"], kind
        for run in index["runs"]:
            assert [s["t"] for s in run["steps"]] == list(range(1, len(run["steps"]) + 1))
            assert run["steps"][-1]["token"] == "<eos>"
            assert all((site / "_static" / "frames" / kind / s["image"]).is_file() for s in run["steps"])


# --- every page in the browser ----------------------------------------------------------------------------


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", checked_pages())
def test_page_loads_offline_with_math_and_images(server, page, name):
    open_page(page, server + name)
    report = page.evaluate("""async () => {
        const images = [...document.images];
        for (const img of images) { img.loading = 'eager'; try { await img.decode(); } catch (e) {} }
        return {
            broken: images.filter(img => !(img.complete && img.naturalWidth > 0)).map(img => img.src),
            images: images.length,
            mathSource: document.querySelectorAll('.math').length,
            typeset: document.querySelectorAll('mjx-container').length,
            text: document.body.innerText,
        };
    }""")
    if name.startswith("05a_"):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "05a_computation_steps.png"))
        page.locator("mjx-container[display=true]").first.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "05a_computation_steps-equations.png"))
    assert external(page.requests, server) == []
    assert page.problems == []
    assert report["broken"] == []
    assert "$$" not in report["text"]
    if report["mathSource"]:
        assert report["typeset"] >= report["mathSource"], "not every equation was typeset by MathJax"
        assert "\\frac" not in report["text"] and "\\bar" not in report["text"]


@pytest.mark.timeout(60)
def test_equations_carry_the_books_numbers(server, page):
    open_page(page, server + "05a_computation_steps.html")
    shown = page.locator("mjx-container[display=true]").all_inner_texts()
    for number in ("9-37", "9-38", "9-39", "9-40"):
        assert any(f"({number})" in text.replace(" ", "") for text in shown), number


@pytest.mark.timeout(60)
def test_sidebar_follows_the_book(server, page):
    open_page(page, server + "index.html")
    links = page.locator("nav.bd-docs-nav a").all_inner_texts()
    positions = [next(i for i, text in enumerate(links) if f" · {section} · " in text) for section in BOOK_ORDER]
    assert positions == sorted(positions)


@pytest.mark.timeout(60)
def test_every_sidebar_entry_carries_its_notebooks_number(server, page):
    open_page(page, server + "index.html")
    links = page.locator("nav.bd-docs-nav a").evaluate_all(
        "links => links.map(a => [a.textContent.trim(), a.getAttribute('href')])")
    pages = {href.split("#")[0].removesuffix(".html") for _, href in links}
    assert pages >= {name.removesuffix(".html") for name in expected_pages() if name != "index.html"}
    for text, href in links:
        stem = href.split("#")[0].removesuffix(".html").removeprefix("solutions/")
        if stem in ("", "index", "translate"):  # the landing page itself ("#" on index.html), the translator
            continue
        assert text.startswith(stem.split("_")[0] + " · "), (text, href)  # 06 and 07 too, like 00


@pytest.mark.timeout(60)
def test_chinese_prose_is_drawn_with_the_bundled_font(server, page):
    open_page(page, server + "05a_computation_steps.html")
    assert page.evaluate(f"document.fonts.check('16px \"{FONT_FAMILY}\"', '注意力权重')")
    # a paragraph of the page's own Chinese characters (the prose also has a few symbols, e.g. an
    # en dash, that the subset lacks and that fall back to a system font)
    chinese = page.evaluate("""() => {
        const text = [...document.querySelectorAll('article p')].map(p => p.textContent).join('');
        const probe = document.createElement('p');
        probe.id = 'font-probe';
        probe.textContent = [...text].filter(ch => /\\p{Script=Han}/u.test(ch)).slice(0, 200).join('');
        document.querySelector('article').prepend(probe);
        return probe.textContent;
    }""")
    assert len(chinese) >= 50
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "#font-probe"})["nodeId"]
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    # every glyph was drawn by the web font the site's CSS loads, none by a system font
    assert [(f["familyName"], f["isCustomFont"]) for f in fonts] == [(FONT_FAMILY, True)], fonts


@pytest.fixture(scope="module")
def latin_only_browser(browser, tmp_path_factory):
    """A second Chromium (same Playwright) that sees no CJK system font: fontconfig limited to DejaVu."""
    fontconfig = latin_only_fontconfig(tmp_path_factory.mktemp("fontconfig"))
    chromium = browser.browser_type.launch(executable_path=find_chromium(), headless=True,
                                           env={**os.environ, **fontconfig}, args=CHROMIUM_FLAGS)
    yield chromium
    chromium.close()


CODE_PROBES = {  # page -> [(what, CSS selector of a <pre>, text it must contain)]
    "00_setup_check": [
        ("code cell", "div.cell_input pre", "快速模式"),
        ("text output", "div.cell_output pre", "设备"),
    ],
}


@pytest.mark.timeout(90)
def test_code_cells_and_text_outputs_draw_chinese_with_the_bundled_font(server, latin_only_browser):
    ranges = bundled_range(ROOT / "site" / "_static" / "site.css")
    with recording_page(latin_only_browser, 20_000, requests=True) as page:
        for name, probes in CODE_PROBES.items():
            open_page(page, server + f"{name}.html")
            for k, (what, selector, needle) in enumerate(probes):
                block = page.locator(selector, has_text=needle).first
                block.evaluate(f"el => {{ el.id = 'code-probe-{k}'; }}")
                text = block.text_content()
                fonts = platform_fonts(page, f"#code-probe-{k}")
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                block.scroll_into_view_if_needed()
                block.screenshot(path=str(ARTIFACTS / f"{name}-{what.replace(' ', '_')}.png"))
                # every Chinese character (and √ × — ·) of the block from the web font, none from a fallback
                assert count_in_ranges(text, ranges) >= 2, (what, text)
                assert bundled_glyphs(fonts) == count_in_ranges(text, ranges), (what, fonts)
                # Latin letters and digits keep the monospace system font (the columns stay aligned)
                assert any(not f["isCustomFont"] and "Mono" in f["familyName"] for f in fonts), (what, fonts)
        assert page.problems == [] and external(page.requests, server) == []


def test_sidebar_search_finds_a_chinese_term(server, page):
    open_page(page, server + "index.html")
    # the sidebar's search field opens the theme's search dialog
    page.locator(".bd-sidebar-primary .search-button__button").first.click()
    box = page.locator("#pst-search-dialog input[name=q]")
    box.fill("注意力权重")
    box.press("Enter")
    page.wait_for_url("**/search.html?q=*")
    results = page.locator("#search-results ul.search li a")
    results.first.wait_for(timeout=20_000)
    hrefs = [results.nth(k).get_attribute("href") for k in range(results.count())]
    assert any("05a_computation_steps" in href for href in hrefs), hrefs
    assert page.problems == []
    assert external(page.requests, server) == []


def search_snippets(page) -> list[str]:
    """The snippet under each result of the search page, once every result has one (searchtools stops its pulse)."""
    page.locator("#search-results ul.search li").first.wait_for(timeout=20_000)
    page.wait_for_function("""() => {
        const items = [...document.querySelectorAll('#search-results ul.search li')];
        return items.length > 0 && items.every(li => li.querySelector('p.context'))
            && !/Searching/.test(document.querySelector('#search-results h2')?.textContent || 'Searching');
    }""", timeout=30_000)
    return page.locator("#search-results ul.search li p.context").all_text_contents()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("term", ["注意力权重", "打分函数", "上下文向量"])
def test_search_snippets_show_no_raw_tex(server, page, term):
    open_page(page, server + f"search.html?q={urllib.parse.quote(term)}")
    snippets = search_snippets(page)
    assert snippets and any(term in text for text in snippets)
    for text in snippets:
        assert "\\" not in text and "$$" not in text, text  # no \alpha, \(, \frac ...
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"search-{term}.png"))
    assert page.problems == []


@pytest.mark.timeout(60)
def test_search_snippets_when_opened_from_a_file(site, page):
    """Double-clicked search page (file://): every result still gets its snippet (site/_ext/page_texts.py)."""
    term = "上下文向量"
    open_page(page, (site / "search.html").as_uri() + f"?q={urllib.parse.quote(term)}")
    snippets = search_snippets(page)
    assert snippets and any(term in text for text in snippets), snippets
    assert all("\\" not in text for text in snippets), snippets
    assert page.problems == []
    assert external(page.requests, site.as_uri()) == []


def markdown_tables(notebook: Path) -> int:
    """How many markdown tables the notebook's outputs print (a `|---|` rule line opens each)."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    count = 0
    for cell in cells:
        for output in cell.get("outputs", []):
            text = output.get("data", {}).get("text/markdown", "")
            text = "".join(text) if isinstance(text, list) else text
            count += len(re.findall(r"^\|(?:\s*:?-{3,}:?\s*\|)+\s*$", text, flags=re.M))
    return count


def test_every_table_a_notebook_prints_is_a_table_on_its_page(site):
    """Tables printed with display(Markdown(...)) render as <table>, not as raw `| a | b |` lines."""
    printed = {}
    for notebook in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        page = site / notebook.relative_to(ROOT / "notebooks").with_suffix(".html")
        text = page.read_text(encoding="utf-8")
        printed[notebook.stem] = markdown_tables(notebook)
        # the prose's own tables are <table> too, so the page has at least as many as the outputs print
        assert text.count("<table") >= printed[notebook.stem], (notebook.name, printed[notebook.stem])
        assert not re.search(r"\|\s*-{3,}\s*\|", text), f"{page.name} shows a raw markdown table"
    assert sum(printed.values()) >= 10, printed  # the check saw the notebooks' tables (01, 03, 06, 07 print them)


def test_the_snippet_reading_of_inline_tex(server, page):
    open_page(page, server + "search.html")
    tex = [r"\(\alpha_{ts}\)", r"\(\mathrm{score}(h_t, \bar{h}_s)\)", r"\(c_t = \sum_s \alpha_{ts} \bar{h}_s\)"]
    read = page.evaluate("tex => tex.map(window.searchSnippetPlainTeX)", tex)
    assert read == ["α_ts", "score(h_t, h̄_s)", "c_t = Σ_s α_ts h̄_s"]


@pytest.mark.timeout(60)
def test_the_step_players_model_picker_lists_models(server, page):
    open_page(page, server + "05a_computation_steps.html")
    player = page.locator(".frame-player")
    label = player.locator("label", has=page.locator("select.frame-model")).first.text_content()
    options = player.locator("select.frame-model option").evaluate_all(
        "options => options.map(o => [o.value, o.textContent])")
    assert label.strip().startswith("模型 (model)")
    assert options and all(text.startswith(value) and value.startswith("luong-") for value, text in options), options


def _player_state(player) -> dict:
    return player.evaluate("""el => ({
        src: el.querySelector('.frame-image').src,
        loaded: el.querySelector('.frame-image').complete && el.querySelector('.frame-image').naturalWidth > 0,
        caption: el.querySelector('.frame-caption').textContent,
        data: JSON.parse(el.querySelector('.frame-data').textContent),
        model: el.querySelector('.frame-model').value,
        sentence: Number(el.querySelector('.frame-sentence').value),
    })""")


def _wait_loaded(player) -> None:
    player.locator(".frame-image").evaluate("img => img.decode()")


def _run(state: dict) -> dict:
    sentence = state["data"]["sentences"][state["sentence"]]
    return next(r for r in state["data"]["runs"] if r["model"] == state["model"] and r["sentence"] == sentence)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("notebook", list(PLAYERS))
def test_step_slider_changes_picture_and_caption(server, page, notebook):
    open_page(page, server + f"{notebook}.html")
    player = page.locator(".frame-player")
    assert player.count() == 1
    player.scroll_into_view_if_needed()
    before = _player_state(player)
    assert before["loaded"] and "t = 1 步" in before["caption"]
    slider = player.locator("input.frame-step")
    slider.focus()
    slider.press("ArrowRight")
    _wait_loaded(player)
    after = _player_state(player)
    step2 = _run(after)["steps"][1]
    assert after["src"] != before["src"] and after["loaded"]
    assert after["caption"] != before["caption"]
    assert "t = 2 步" in after["caption"] and f"输出 “{step2['token']}”" in after["caption"]
    # another model: another picture of the same step
    other = after["data"]["models"][1]["name"]
    player.locator("select.frame-model").select_option(other)
    _wait_loaded(player)
    switched = _player_state(player)
    assert switched["model"] == other and switched["src"] != after["src"] and switched["loaded"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    player.screenshot(path=str(ARTIFACTS / f"{notebook}-player.png"))
    assert page.problems == [] and external(page.requests, server) == []


@pytest.mark.timeout(60)
def test_player_works_when_opened_from_a_file(site, page):
    url = (site / "07a_heatmaps.html").as_uri()
    open_page(page, url)
    player = page.locator(".frame-player")
    before = _player_state(player)
    player.locator("input.frame-step").focus()
    player.locator("input.frame-step").press("End")
    _wait_loaded(player)
    after = _player_state(player)
    assert after["src"] != before["src"] and after["loaded"] and "<eos>" in after["caption"]
    assert page.problems == []
    assert external(page.requests, site.as_uri()) == []
