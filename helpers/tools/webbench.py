"""Benchmark of the website's in-page translator in headless Chromium (a measurement, not a test).

``python -m helpers.tools.webbench [--site site/_build/html] [--repeat 5]`` opens ``translate.html`` from
``file://`` in the system Chromium (``tests/browser_support.py``'s flags, through ``playwright``) and prints:

* **load**: navigation start until the page is ready: the default model's weights decoded and the
  sentence already in the box translated and drawn;
* **Enter → translation shown**: from the Enter key (its ``keydown`` time stamp) to the first animation
  frame after the translation, heatmap and top-5 are in the page, for the first sentence the reader
  types after loading and for the next ones; and, after picking a model not loaded yet, the time the page itself
  measures from the pick to the result (its weight file loaded and decoded, then the translation);
* **slider key → picture**: from an ArrowRight ``keydown`` on the step slider to the first animation frame
  after the heatmap was redrawn, over every step of a long sentence;
* the size of the weight files.

Targets (issue 31): under 1 s to the first translation, under 50 ms from a slider key to the picture.
Run ``make site`` first (or pass ``--site``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SENTENCES = ["Xiaoming ate an apple yesterday", "my mother is a teacher and she likes reading books",
             "what's your favourite colour", "tom went to the park with his dog after school ."]
LONG = ("when i got home yesterday my little brother was doing his homework in his room , so i cooked dinner "
        "for the whole family .")

WATCH = """() => ({p: new Promise(resolve => {  // Enter's keydown -> first frame after the page shows the result
    const app = document.querySelector('.nmt-app'), input = document.querySelector('.nmt-input');
    let down = null;
    input.addEventListener('keydown', e => { if (e.key === 'Enter') down = e.timeStamp; }, {once: true});
    const seen = new MutationObserver(() => {
        if (app.dataset.state === 'done' || app.dataset.state === 'error') {
            seen.disconnect();
            requestAnimationFrame(() => resolve({ms: performance.now() - down, state: app.dataset.state}));
        }
    });
    seen.observe(app, {attributes: true, attributeFilter: ['data-state']});
})})"""  # wrapped in an object: evaluate_handle would wait for a bare promise

SLIDER = """() => ({p: new Promise(resolve => {  // ArrowRight's keydown -> first frame after the redraw
    const slider = document.querySelector('.nmt-step');
    slider.addEventListener('keydown', e => {
        const down = e.timeStamp;
        slider.addEventListener('input', () => requestAnimationFrame(() => resolve(performance.now() - down)),
                              {once: true});
    }, {once: true});
})})"""


def _enter(page, sentence: str) -> float:
    page.fill(".nmt-input", sentence)
    waiting = page.evaluate_handle(WATCH)
    page.press(".nmt-input", "Enter")
    result = page.evaluate("o => o.p", waiting)
    if result["state"] != "done":
        raise RuntimeError(f"translation failed for {sentence!r}")
    return result["ms"]


def run(site: Path, repeat: int = 5) -> dict:
    sys.path.insert(0, str(ROOT / "tests"))
    from browser_support import find_chromium, recording_page, running_chromium

    executable = find_chromium()
    if executable is None:
        raise SystemExit("没有找到 Chromium 浏览器 (chromium not found)")
    url = (Path(site) / "translate.html").resolve().as_uri()
    out = {"load_ms": [], "cold_ms": [], "warm_ms": [], "switch_ms": [], "slider_ms": []}
    with running_chromium(executable) as browser:
        for _ in range(repeat):
            with recording_page(browser, 60_000) as page:
                page.goto(url, wait_until="load")
                page.wait_for_function("document.querySelector('.nmt-app').dataset.ready === '1'")
                out["load_ms"].append(page.evaluate(
                    "performance.now() - performance.getEntriesByType('navigation')[0].startTime"))
                out["cold_ms"].append(_enter(page, SENTENCES[0]))
                out["warm_ms"] += [_enter(page, s) for s in SENTENCES[1:]]
                page.select_option(".nmt-model", "bahdanau")
                page.wait_for_function("document.querySelector('.nmt-app').dataset.state === 'done'")
                page.select_option(".nmt-model", "luong-concat")  # not loaded yet: its script loads first
                page.wait_for_function("document.querySelector('.nmt-app').dataset.state === 'done'")
                out["switch_ms"].append(float(page.get_attribute(".nmt-app", "data-ms")))
                _enter(page, LONG)
                slider = page.locator(".nmt-step")
                slider.focus()
                for _ in range(int(slider.get_attribute("max")) - 1):
                    waiting = page.evaluate_handle(SLIDER)
                    page.keyboard.press("ArrowRight")
                    out["slider_ms"].append(page.evaluate("o => o.p", waiting))
                if page.problems:
                    raise RuntimeError(f"page problems: {page.problems}")
    weights = sorted((Path(site) / "_static" / "translator").glob("*.js"))
    out["weights_mb"] = round(sum(p.stat().st_size for p in weights if p.name.startswith("model-")) / 2**20, 1)
    return out


def _summary(values: list[float]) -> str:
    values = sorted(values)
    return (f"median {statistics.median(values):.0f} ms, max {values[-1]:.0f} ms "
            f"(n = {len(values)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m helpers.tools.webbench", description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site" / "_build" / "html")
    parser.add_argument("--repeat", type=int, default=5, help="fresh page loads (default 5)")
    args = parser.parse_args(argv)
    r = run(args.site, args.repeat)
    print(f"页面加载到就绪 (load: default model decoded, box translated): {_summary(r['load_ms'])}")
    print(f"回车 → 第一个译文 (Enter → first translation): {_summary(r['cold_ms'])}  目标 < 1000 ms")
    print(f"回车 → 译文 (Enter → translation, warm): {_summary(r['warm_ms'])}")
    print(f"换一个未加载的模型 → 译文 (new model: load + translate): {_summary(r['switch_ms'])}")
    print(f"滑块按键 → 画面 (slider key → picture): {_summary(r['slider_ms'])}  目标 < 50 ms")
    print(f"权重文件 (weight files): {r['weights_mb']} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
