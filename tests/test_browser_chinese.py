"""Real browser: the environment's JupyterLab opens in Chinese, asks nothing about news, and shows
notebook prose and the widgets' form controls in the bundled font even where the system has no Chinese
font.

The settings come from ``helpers.tools.labsetup`` written into a temporary prefix (the files the
install step writes into .venv) and no user settings at all. Chromium runs with fontconfig limited
to DejaVu (no CJK font); the fonts Chromium really used for a paragraph are read over the DevTools
protocol (``CSS.getPlatformFontsForNode``). Screenshots: artifacts/browser/chinese_ui.png (prose and
menus), artifacts/browser/chinese_widgets.png (07's explorer: the 例句 dropdown and the sentence box after
typing Chinese into it; browsers give <select>/<input> their own font, not the page's).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import urllib.request
from pathlib import Path

import nbformat
import pytest
from browser_support import (
    bundled_glyphs,
    bundled_range,
    chromium_or_skip,
    count_in_ranges,
    latin_only_fontconfig,
    platform_fonts,
    start_lab,
    wait_kernel_idle,
)

from helpers.tools import labsetup

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts" / "browser"
PROSE = "注意力机制让解码器在每一步查看编码器的全部隐含状态。"
TYPED = "我是学生"  # what a student types into the explorer's sentence box
WIDGET_CELL = """from helpers.widgets import AttentionExplorer
AttentionExplorer(model="luong-general")"""


def _default(server, plugin: str, key: str):
    """A setting's default as the server hands it out: the schema default after overrides.json."""
    url = f"{server.base_url}/lab/api/settings/{plugin}?token={server.token}"
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.load(reply)["schema"]["properties"][key]["default"]


@pytest.fixture(scope="module")
def chinese_lab(tmp_path_factory):
    chromium = chromium_or_skip()
    work = tmp_path_factory.mktemp("chinese-lab")
    fontconfig = latin_only_fontconfig(work / "fontconfig")
    prefix, root = work / "prefix", work / "root"
    root.mkdir()
    labsetup.install(prefix)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(f"# 第 9.10 节\n\n{PROSE}")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, str(root / "prose.ipynb"))
    nb.cells = [nbformat.v4.new_code_cell(WIDGET_CELL)]
    nbformat.write(nb, str(root / "widgets.ipynb"))
    server = start_lab(
        root, work, settings={},  # no user settings: everything below comes from the environment's files
        extra_env={"JUPYTER_CONFIG_PATH": str(prefix / "etc" / "jupyter")},
        extra_args=(f"--LabApp.app_settings_dir={prefix / 'share' / 'jupyter' / 'lab' / 'settings'}",),
    )
    yield server, chromium, fontconfig
    server.stop()


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_chinese_menus_no_news_prompt_and_bundled_font_for_prose(chinese_lab):
    from playwright.sync_api import sync_playwright

    server, chromium, fontconfig = chinese_lab
    cjk = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True,
                         env={**os.environ, **fontconfig}).stdout
    assert cjk.strip() == "", f"the browser's fontconfig should see no Chinese font, found: {cjk[:200]}"
    assert _default(server, "@jupyterlab/translation-extension:plugin", "locale") == "zh_CN"
    assert _default(server, "@jupyterlab/apputils-extension:notification", "fetchNews") == "false"
    assert _default(server, "@jupyterlab/apputils-extension:notification", "checkForUpdates") is False

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, env={**os.environ, **fontconfig},
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
        )
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 800})
            page.goto(f"{server.base_url}/lab/tree/prose.ipynb?token={server.token}&reset",
                      wait_until="domcontentloaded", timeout=60_000)
            menu = page.locator(".lm-MenuBar-itemLabel").first
            menu.wait_for(timeout=60_000)
            assert menu.inner_text().strip() == "文件"
            paragraph = page.locator(".jp-RenderedMarkdown p", has_text=PROSE[:6]).first
            paragraph.wait_for(timeout=60_000)
            page.evaluate("document.fonts.ready")
            page.wait_for_timeout(3000)  # the news question, when enabled, arrives as a toast by now
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "chinese_ui.png"))
            toasts = page.locator(".Toastify__toast, .jp-Notification-Toast-default").all_inner_texts()
            assert not any(re.search(r"news|新闻|资讯", t, re.I) for t in toasts), toasts

            cdp = page.context.new_cdp_session(page)
            cdp.send("DOM.enable")
            cdp.send("CSS.enable")
            document = cdp.send("DOM.getDocument", {"depth": -1})
            used = {}
            for selector in (".jp-RenderedMarkdown p", ".lm-MenuBar-itemLabel"):
                node = cdp.send("DOM.querySelector", {"nodeId": document["root"]["nodeId"], "selector": selector})
                used[selector] = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]
        finally:
            browser.close()
    # every Chinese character of the paragraph and of 文件 comes from the bundled web font, none from a fallback
    for selector, text in ((".jp-RenderedMarkdown p", PROSE), (".lm-MenuBar-itemLabel", "文件")):
        bundled = sum(f["glyphCount"] for f in used[selector] if f.get("isCustomFont"))
        assert bundled == len(text), f"{selector}: fonts used {used[selector]}"


@pytest.mark.browser
@pytest.mark.timeout(240)
def test_widget_dropdown_and_typed_text_use_the_bundled_font(chinese_lab):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    server, chromium, fontconfig = chinese_lab
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, env={**os.environ, **fontconfig},
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
        )
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 900})
            page.goto(f"{server.base_url}/lab/tree/widgets.ipynb?token={server.token}&reset",
                      wait_until="domcontentloaded", timeout=60_000)
            page.locator(".jp-CodeCell .cm-content").first.wait_for(timeout=60_000)
            wait_kernel_idle(page, 90)
            examples = page.locator(".widget-dropdown", has_text="例句").locator("select").first
            run = page.locator(".jp-NotebookPanel-toolbar [data-command='notebook:run-cell-and-select-next']")
            try:
                for _ in range(3):  # a click that lands while the kernel connects runs nothing: run again
                    page.locator(".jp-CodeCell").first.click()
                    run.first.click()
                    try:
                        examples.wait_for(timeout=40_000)
                        break
                    except PlaywrightTimeout:
                        if page.locator(".jp-CodeCell .jp-InputArea-prompt").first.inner_text().strip() != "[ ]:":
                            raise
                examples.wait_for(timeout=5_000)
            except Exception:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "chinese_widgets_failed.png"))
                raise
            box = page.locator(".widget-text", has_text="英文句子").locator("input").first
            box.fill("")
            box.press_sequentially(TYPED)
            examples.evaluate("el => { el.id = 'font-probe-select'; }")
            box.evaluate("el => { el.id = 'font-probe-input'; }")
            page.evaluate("document.fonts.ready")
            page.wait_for_timeout(500)
            output = page.locator(".jp-OutputArea-output").first
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            output.screenshot(path=str(ARTIFACTS / "chinese_widgets.png"))
            shown = examples.evaluate("el => el.options[el.selectedIndex].text")
            typed = box.input_value()
            dropdown_fonts = platform_fonts(page, "#font-probe-select")
            box_fonts = platform_fonts(page, "#font-probe-input")
        finally:
            browser.close()
    assert "选一个例句" in shown and typed == TYPED
    # every Chinese glyph of the dropdown's shown option and of the typed text comes from the bundled
    # font (Latin letters may come from DejaVu); without the font rule they come from no font at all
    ranges = bundled_range(ROOT / "helpers" / "tools" / "lab" / "custom.css")
    assert count_in_ranges(shown, ranges) >= 5, shown
    assert bundled_glyphs(dropdown_fonts) == count_in_ranges(shown, ranges), dropdown_fonts
    assert bundled_glyphs(box_fonts) == count_in_ranges(TYPED, ranges) == 4, box_fonts
