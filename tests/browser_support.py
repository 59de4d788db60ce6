"""Helpers for the real-browser test: start JupyterLab in a temporary folder, drive Debian's Chromium.

Nothing here downloads anything: Chromium is the system package (``apt-get install chromium``),
launched by path through the Python ``playwright`` package; JupyterLab runs from the project venv.

JupyterLab 4 virtualises notebook cells (``windowingMode`` defaults to ``contentVisibility`` in 4.6),
so a test could not see out-of-view cells. ``write_user_settings`` writes a user-settings folder with
``{"windowingMode": "none"}`` for ``@jupyterlab/notebook-extension:tracker`` and points JupyterLab at
it with ``--LabApp.user_settings_dir``; every cell is then attached to the page.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-dev-shm-usage",
]

# JupyterLab user settings, one file per plugin: <settings dir>/<package>/<plugin>.jupyterlab-settings
USER_SETTINGS = {
    # windowingMode none: render every cell (no virtualisation), so selectors see the whole notebook;
    # autoStartDefaultKernel: start the notebook's kernel without the "Select Kernel" dialog
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none", "autoStartDefaultKernel": True},
    # offline: no news prompt, no update check
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    # English menus: these tests click "Run" / "Edit" by label, while the venv's JupyterLab defaults to
    # zh_CN (helpers/tools/labsetup.py); tests/test_browser_chinese.py checks that default
    "@jupyterlab/translation-extension/plugin": {"locale": "en"},
}

SERVER_START_TIMEOUT = 60  # seconds until JupyterLab answers /api/status
RUN_ALL_TIMEOUT = 120  # seconds for "Run All Cells" to finish with the kernel idle
IMAGE_CHANGE_TIMEOUT = 20  # seconds for a widget's <img> to show a new picture


# --- Chromium ------------------------------------------------------------------------------------


def find_chromium() -> str | None:
    """Path of a system Chromium: $PLAYWRIGHT_CHROMIUM_EXECUTABLE, else `chromium` on PATH."""
    candidates = [os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE", "")]
    candidates += [shutil.which(name) or "" for name in ("chromium", "chromium-browser")]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def chromium_or_skip() -> str:
    """The Chromium path; skip the test without one, or fail when REQUIRE_BROWSER=1 (CI)."""
    path = find_chromium()
    if path is not None:
        return path
    reason = (
        "没有找到 Chromium 浏览器 (chromium not found)：请运行 `apt-get install chromium fonts-noto-cjk`，"
        "或者设置 PLAYWRIGHT_CHROMIUM_EXECUTABLE 指向浏览器程序。"
    )
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(reason + " (REQUIRE_BROWSER=1: a missing browser is a failure here)", pytrace=False)
    pytest.skip(reason)


LATIN_ONLY_FONTS = Path("/usr/share/fonts/truetype/dejavu")  # Debian's fonts-dejavu-core: no Chinese


def latin_only_fontconfig(folder: Path) -> dict:
    """Environment for a Chromium that sees no CJK font (fontconfig limited to DejaVu), as on a lab
    machine without Chinese fonts; skips the test when DejaVu is not installed."""
    if not LATIN_ONLY_FONTS.is_dir():
        pytest.skip(f"需要 DejaVu 字体 (fonts-dejavu-core) 来模拟没有中文字体的系统: {LATIN_ONLY_FONTS}")
    folder.mkdir(parents=True, exist_ok=True)
    conf = folder / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        f"  <dir>{LATIN_ONLY_FONTS}</dir>\n  <cachedir>{folder / 'cache'}</cachedir>\n</fontconfig>\n",
        encoding="utf-8",
    )
    return {"FONTCONFIG_FILE": str(conf)}


def platform_fonts(page, selector: str) -> list[dict]:
    """The fonts Chromium really used for the text of the first element matching ``selector``
    (DevTools ``CSS.getPlatformFontsForNode``; shadow DOM included, so an <input>'s value counts)."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1, "pierce": True})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        return cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    finally:
        cdp.detach()


def bundled_range(css_path: Path) -> list[tuple[int, int]]:
    """The code points an @font-face of ``css_path`` with a unicode-range gives to the bundled font."""
    css = Path(css_path).read_text(encoding="utf-8")
    spans = re.search(r"unicode-range:\s*([^;]+);", css).group(1)
    ranges = []
    for span in spans.split(","):
        low, _, high = span.strip().removeprefix("U+").partition("-")
        ranges.append((int(low, 16), int(high or low, 16)))
    return ranges


def count_in_ranges(text: str, ranges: list[tuple[int, int]]) -> int:
    """How many characters of ``text`` fall into ``ranges`` (the ones the bundled font must draw)."""
    return sum(1 for ch in text if any(low <= ord(ch) <= high for low, high in ranges))


def bundled_glyphs(fonts: list[dict]) -> int:
    """Glyphs drawn by a web font (the bundled one: the pages load no other)."""
    return sum(f["glyphCount"] for f in fonts if f.get("isCustomFont"))


def launch_chromium(playwright, executable: str):
    """A headless Chromium from the system package (never a downloaded one).

    Playwright gives each launch a fresh temporary profile (user-data dir) and removes it on close.
    """
    return playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_FLAGS)


@contextlib.contextmanager
def running_chromium(executable: str):
    """Playwright and one headless system Chromium, closed on exit (the body of a browser fixture)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright, executable)
        try:
            yield chromium
        finally:
            chromium.close()


@contextlib.contextmanager
def recording_page(browser, timeout_ms: int, requests: bool = False):
    """A fresh tab (1400 × 1000, zh-CN) whose uncaught page errors and console errors go to ``page.problems``.

    With ``requests=True`` it also keeps every requested URL in ``page.requests`` and reports failed loads
    and HTTP errors in ``page.problems``.
    """
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="zh-CN")
    page = context.new_page()
    page.set_default_timeout(timeout_ms)
    page.problems = []
    if requests:
        page.requests = []
        page.on("request", lambda request: page.requests.append(request.url))
        page.on("requestfailed", lambda request: page.problems.append(f"failed: {request.url} {request.failure}"))
        page.on("response", lambda reply: reply.status >= 400 and page.problems.append(f"{reply.status}: {reply.url}"))
    page.on("pageerror", lambda error: page.problems.append(f"pageerror: {error}"))
    page.on("console", lambda msg: msg.type == "error" and page.problems.append(f"console: {msg.text}"))
    try:
        yield page
    finally:
        context.close()


# --- JupyterLab server -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def write_user_settings(settings_dir: Path, settings: dict | None = None) -> Path:
    """Write JupyterLab user settings (default: USER_SETTINGS) into settings_dir and return it."""
    for plugin, values in (USER_SETTINGS if settings is None else settings).items():
        path = settings_dir / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values, indent=2), encoding="utf-8")
    return settings_dir


@dataclass
class LabServer:
    """A running JupyterLab: its process, base URL, token and log file."""

    process: subprocess.Popen
    port: int
    token: str
    root: Path
    log_path: Path

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def notebook_url(self, name: str) -> str:
        return f"{self.base_url}/lab/tree/{name}.ipynb?token={self.token}&reset"

    def log_tail(self, chars: int = 4000) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-chars:]
        except OSError:
            return ""

    def stop(self, timeout: float = 15) -> None:
        """Stop the server and its kernels (the whole process group we started)."""
        if self.process.poll() is not None:
            return
        for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 5)):
            try:
                os.killpg(self.process.pid, sig)
            except ProcessLookupError:
                return
            try:
                self.process.wait(timeout=wait)
                return
            except subprocess.TimeoutExpired:
                continue


def start_lab(root: Path, work_dir: Path, extra_env: dict | None = None,
              timeout: float = SERVER_START_TIMEOUT, settings: dict | None = None,
              extra_args: tuple[str, ...] = ()) -> LabServer:
    """Start `python -m jupyter lab` on 127.0.0.1 with a random port and token, serving root.

    Settings, workspaces and runtime files go under work_dir, so the user's own JupyterLab set-up is
    neither read nor changed (``settings``: user settings instead of USER_SETTINGS). Waits (at most
    `timeout` s) until /api/status answers.
    """
    port = free_port()
    token = os.urandom(16).hex()
    settings_dir = write_user_settings(work_dir / "user-settings", settings)
    settings_dir.mkdir(parents=True, exist_ok=True)
    (work_dir / "workspaces").mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.update({"JUPYTER_RUNTIME_DIR": str(work_dir / "runtime"), "PYTHONUNBUFFERED": "1"})
    env.update(extra_env or {})
    command = [
        sys.executable, "-m", "jupyter", "lab",
        "--no-browser",
        "--ServerApp.allow_root=True",  # CI containers run as root
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        f"--LabApp.user_settings_dir={settings_dir}",
        f"--LabApp.workspaces_dir={work_dir / 'workspaces'}",
        *extra_args,
    ]
    log_path = work_dir / "jupyterlab.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    server = LabServer(process, port, token, root, log_path)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with code {process.returncode}:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(f"{server.base_url}/api/status?token={token}", timeout=2) as reply:
                if reply.status == 200:
                    return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.5)
    server.stop()
    raise RuntimeError(f"JupyterLab did not answer within {timeout} s:\n{server.log_tail()}")


# --- driving the notebook page -----------------------------------------------------------------------


def open_notebook(page, server: LabServer, name: str, timeout: float = 60) -> None:
    """Open <root>/<name>.ipynb and wait until its kernel is idle and all cells are attached."""
    page.goto(server.notebook_url(name), wait_until="domcontentloaded", timeout=timeout * 1000)
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(state="attached", timeout=timeout * 1000)
    wait_kernel_idle(page, timeout)


def wait_kernel_idle(page, timeout: float = RUN_ALL_TIMEOUT) -> None:
    """Wait until the notebook toolbar shows a kernel (not "No Kernel") and its status is idle."""
    page.wait_for_function(
        """() => {
            const indicator = document.querySelector('.jp-Notebook-ExecutionIndicator');
            const name = document.querySelector('.jp-NotebookPanel-toolbar .jp-KernelName');
            return indicator !== null && indicator.dataset.status === 'idle'
                && name !== null && name.textContent.trim() !== '' && !/No Kernel/.test(name.textContent);
        }""",
        timeout=timeout * 1000,
        polling=250,
    )


def click_menu(page, top: str, item: str) -> None:
    """Click a main-menu entry, e.g. click_menu(page, "Run", "Run All Cells")."""
    page.locator(".lm-MenuBar-itemLabel", has_text=top).first.click()
    page.locator(".lm-Menu-item:not(.lm-mod-disabled) .lm-Menu-itemLabel", has_text=item).first.click()


def run_all_cells(page, timeout: float = RUN_ALL_TIMEOUT) -> None:
    """Clear the committed outputs, Run > Run All Cells, and wait until every code cell has an
    execution number and the kernel is idle again."""
    click_menu(page, "Edit", "Clear Outputs of All Cells")
    page.wait_for_function(
        """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputArea-prompt')]
                 .every(p => !/\\[\\d+\\]/.test(p.textContent))""",
        timeout=10_000,
    )
    click_menu(page, "Run", "Run All Cells")
    # done when every code cell has a number, or when a cell failed (Run All stops there)
    page.wait_for_function(
        """() => {
            const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputArea-prompt')];
            const numbered = prompts.map(p => /\\[\\d+\\]/.test(p.textContent));
            const running = prompts.some(p => /\\[\\*\\]/.test(p.textContent));
            const failed = document.querySelector('.jp-Notebook .jp-OutputArea-output'
                + '[data-mime-type="application/vnd.jupyter.stderr"]') !== null;
            return prompts.length > 0 && (numbered.every(Boolean) || (failed && !running));
        }""",
        timeout=timeout * 1000,
        polling=250,
    )
    wait_kernel_idle(page, timeout)


def image_fingerprint(image_locator) -> str | None:
    """SHA-256 of the bytes an <img> shows (blob: or data: URL), or None while they cannot be read
    (ipywidgets revokes the old blob URL when it swaps in a new picture)."""
    return image_locator.evaluate(
        """async img => {
            try {
                const bytes = await (await fetch(img.src)).arrayBuffer();
                const digest = await crypto.subtle.digest('SHA-256', bytes);
                return [...new Uint8Array(digest)].map(b => b.toString(16).padStart(2, '0')).join('');
            } catch (error) {
                return null;
            }
        }"""
    )


def wait_image_fingerprint(image_locator, timeout: float = IMAGE_CHANGE_TIMEOUT) -> str:
    """The fingerprint of the picture shown now (retrying while a swap is in progress)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        current = image_fingerprint(image_locator)
        if current is not None:
            return current
        time.sleep(0.2)
    raise AssertionError(f"could not read the widget image within {timeout} s")


def wait_image_changed(image_locator, before: str, timeout: float = IMAGE_CHANGE_TIMEOUT) -> str:
    """Poll until the <img> shows different bytes than `before`; return the new fingerprint."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        current = image_fingerprint(image_locator)
        if current is not None and current != before:
            return current
        time.sleep(0.2)
    raise AssertionError(f"widget image did not change within {timeout} s (still sha256 {before[:12]}...)")


def lab_setting(server: LabServer, plugin: str, key: str):
    """The effective (composite) value of one JupyterLab setting, read from the settings REST API."""
    url = f"{server.base_url}/lab/api/settings/{plugin}?token={server.token}"
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.load(reply)["settings"][key]


def error_outputs(page) -> list[str]:
    """Texts of error outputs on the page: tracebacks, `...Error` on stderr, broken widget views."""
    return page.evaluate(
        r"""() => {
            const found = [];
            for (const node of document.querySelectorAll(
                    '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')) {
                const text = node.textContent;
                if (/Traceback|\w+Error\b/.test(text)) found.push(text.slice(0, 2000));
            }
            for (const node of document.querySelectorAll('.jp-OutputArea-output')) {
                const text = node.textContent;
                if (/Error displaying widget|Error rendering output/.test(text)) found.push(text.slice(0, 500));
            }
            return found;
        }"""
    )


def log_console_errors(page) -> list[str]:
    """Errors raised in widget callbacks. JupyterLab sends them to the Log Console, not to a cell, so
    when the status bar counts log messages, open the console and return the error entries."""
    item = page.locator(".jp-LogConsoleStatusItem:not(.lm-mod-hidden)")
    if item.count() == 0 or not re.search(r"[1-9]", item.first.text_content() or ""):
        return []
    item.first.click()
    entries = page.locator(".jp-LogConsolePanel .jp-OutputArea-output")
    entries.first.wait_for(state="attached", timeout=10_000)
    texts = [entries.nth(k).text_content() or "" for k in range(entries.count())]
    return [text[:2000] for text in texts if re.search(r"Traceback|\w+Error\b", text)]


def slider_readout(slider_locator) -> str:
    return slider_locator.locator(".widget-readout").first.evaluate(
        "el => (el.value !== undefined && el.value !== '' ? el.value : el.textContent).trim()"
    )


def nudge_slider(slider_locator) -> None:
    """Move a (Int|Float)Slider one step with the keyboard: right, or left when already at the maximum."""
    handle = slider_locator.locator(".noUi-handle").first
    before = slider_readout(slider_locator)
    handle.focus()
    handle.press("ArrowRight")
    time.sleep(0.3)
    if slider_readout(slider_locator) == before:
        handle.press("ArrowLeft")
