"""The website's in-page translator (site/translate.md, site/_static/translator/nmt.js) against PyTorch.

* **Parity of the forward pass** (float32 export, ``python -m helpers.tools.webmodels --precision float32``
  loaded into a bare page with nmt.js): for every shipped model, on the first 200 test sentences and the
  60 learner sentences, the page's tokens equal PyTorch's and the attention weights differ by at most
  1e-4; beam search (k = 4) on a smaller set; the tokeniser on typed input and the messages for input
  without an English word.
* **The site as shipped** (float16 weights, ``helpers.tools.webmodels.SITE_PRECISION``): the same
  sentences decode to PyTorch's tokens with every model; the export rerun gives the same bytes as the
  site embeds; typing a sentence and pressing Enter shows the translation, the copied word marked and a
  heatmap whose pixels follow the attention; the step slider moves the picture; no request leaves the
  page, opened from file://.

PyTorch's side: the sentences read by ``read_source`` and decoded by ``decode_sentences`` with the
model's shipped decoding, in batches (what ``translate`` does one sentence at a time: 4x faster here;
``test_typing_a_sentence_shows_translation_copy_and_heatmap`` checks ``translate`` itself), then
``copy_unknown`` as ``translate`` does.
"""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import numpy as np
import pytest
from browser_support import chromium_or_skip, recording_page, running_chromium

from helpers import load_pretrained, translate
from helpers.checkpoint import list_pretrained
from helpers.corpus import load_corpus
from helpers.decode import decode_sentences, shipped_decoding
from helpers.runtime.errors import HelpersError
from helpers.tools.webmodels import DATA_FILE, model_file, write_web_models
from helpers.translation.copying import copy_unknown
from helpers.translation.source import read_source

ROOT = Path(__file__).resolve().parents[1]
NMT_JS = ROOT / "site" / "_static" / "translator" / "nmt.js"
N_TEST = 200
ATTENTION_TOLERANCE = 1e-4
PY_EXAMPLE = "translate(model, 'i am a student .')"  # the page's messages name the sentence, not the call

pytestmark = pytest.mark.browser

TYPED = [
    "Xiaoming's cat didn't eat 21 apples at 6:30", "What're you doing", "i'm 3rd!!", "how nice the day",
    "  Hello\u3000WORLD？", "twenty-one  books,", "o'clock 6:00 it's 100", "rock'n'roll", "he's done it'll be",
    "Tom's", "do not", "a " * 70, "x" * 50 + " is here", "İstanbul ſs", "I LIKE TEA!", "where is the 1st book...",
]
REFUSED = ["我是学生", "...", "123 456", "😀 ！", "   ", "我 。"]


@functools.cache
def sentences() -> list[str]:
    return [" ".join(p.src) for p in list(load_corpus("test"))[:N_TEST]] + \
           [" ".join(p.src) for p in load_corpus("learner")]


@functools.cache
def reference(name: str, beam_size: int | None = None, count: int | None = None) -> list[dict]:
    """PyTorch's tokens (after the copy) and attention for sentences()[:count]."""
    model = load_pretrained(name)
    sources = [read_source(s, model.src_vocab) for s in sentences()[:count]]
    options = shipped_decoding(model)
    if beam_size:
        options["beam_size"] = beam_size
    result = decode_sentences(model, [s.ids for s in sources], **options)
    out = []
    for n, source in enumerate(sources):
        attention = None if result.attention is None else result.attention[n]
        tokens, _ = copy_unknown(model.tgt_vocab.decode(result.tokens[n]), attention, source.surfaces)
        out.append({"tokens": tokens, "attention": attention})
    return out


def page_runs(page, names, texts, options=None) -> dict:
    """{model: [{tokens, attention}]} from the page, all in one evaluate call; also the time it took."""
    return page.evaluate(
        """([names, texts, options]) => {
            const start = performance.now(), runs = {};
            for (const name of names) runs[name] = texts.map(s => {
                const r = NMT.translate(name, s, options);
                return {tokens: r.tgtTokens, attention: r.attention};
            });
            return {runs, ms: performance.now() - start};
        }""", [names, texts, options or {}])


def compare(name, mine, theirs) -> tuple[int, float]:
    """(token mismatches, max |attention difference| over the sentences whose tokens agree)."""
    mismatches, worst = 0, 0.0
    for got, want in zip(mine, theirs, strict=True):
        if got["tokens"] != want["tokens"]:
            mismatches += 1
        elif want["attention"] is not None:
            worst = max(worst, float(np.abs(np.asarray(got["attention"]) - want["attention"]).max()))
        else:
            assert got["attention"] is None, name
    return mismatches, worst


# --- fixtures -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    with running_chromium(chromium_or_skip()) as chromium:
        yield chromium


@pytest.fixture(scope="module")
def exact_page(browser, tmp_path_factory):
    """A bare page with the float32 export and nmt.js (no site around it), every model loaded."""
    folder = tmp_path_factory.mktemp("nmt32")
    write_web_models(folder, precision="float32")
    scripts = [DATA_FILE] + [model_file(n) for n in list_pretrained()]
    (folder / "nmt.js").write_bytes(NMT_JS.read_bytes())
    html = "".join(f'<script src="{name}"></script>' for name in scripts + ["nmt.js"])
    (folder / "index.html").write_text(f"<!doctype html><meta charset='utf-8'><body>{html}</body>", encoding="utf-8")
    with recording_page(browser, 120_000) as page:
        page.goto((folder / "index.html").as_uri())
        page.evaluate("names => names.forEach(n => NMT.net(n))", list_pretrained())
        yield page
        assert page.problems == []


@pytest.fixture
def site_page(browser, site):
    """The site's translate.html, opened from file://, its default model loaded; records every request."""
    with recording_page(browser, 60_000, requests=True) as page:
        page.goto((site / "translate.html").as_uri(), wait_until="load")
        page.wait_for_function("document.querySelector('.nmt-app').dataset.ready === '1'")
        yield page
        assert page.problems == []
        assert [url for url in page.requests if not url.startswith(("file:", "data:"))] == []


# --- the forward pass, float32 -----------------------------------------------------------------------------


@pytest.mark.timeout(300)
def test_every_model_gives_pytorchs_tokens_and_attention(exact_page):
    names, texts = list_pretrained(), sentences()
    assert len(texts) >= N_TEST + 60 and len(names) == 6
    got = page_runs(exact_page, names, texts)
    figures = {name: compare(name, got["runs"][name], reference(name)) for name in names}
    print(f"float32 parity on {len(texts)} sentences ({got['ms'] / 1000:.1f} s in the page):", figures)
    for name, (mismatches, worst) in figures.items():
        assert mismatches == 0, (name, mismatches)
        assert worst <= ATTENTION_TOLERANCE, (name, worst)
    assert figures["bahdanau"][1] > 0  # the attention was compared, not skipped


@pytest.mark.timeout(300)
def test_beam_search_gives_pytorchs_tokens(exact_page):
    names, count = ["bahdanau", "luong-general"], 30
    got = page_runs(exact_page, names, sentences()[:count], {"beamSize": 4})
    for name in names:
        assert compare(name, got["runs"][name], reference(name, 4, count))[0] == 0, name


def test_typed_input_is_read_as_python_reads_it(exact_page):
    vocab = load_pretrained("bahdanau").src_vocab
    got = exact_page.evaluate("""texts => texts.map(s => { try { const r = NMT.read(s);
        return {tokens: r.tokens, surfaces: r.surfaces, ids: r.ids, unknown: r.unknown, truncated: r.truncated};
        } catch (e) { return {refused: e.kind, message: e.message}; } })""", TYPED + REFUSED)
    for text, mine in zip(TYPED, got[: len(TYPED)]):
        source = read_source(text, vocab)
        assert mine == {"tokens": source.tokens, "surfaces": source.surfaces, "ids": source.ids,
                        "unknown": source.unknown, "truncated": source.truncated}, text
    assert got[TYPED.index("a " * 70)]["truncated"] and got[0]["surfaces"][0] == "Xiaoming"
    for text, mine in zip(REFUSED, got[len(TYPED):]):
        with pytest.raises(HelpersError) as caught:
            read_source(text, vocab)
        assert mine["message"] == str(caught.value).replace(PY_EXAMPLE, "'i am a student .'"), text
    assert got[len(TYPED)]["refused"] == "chinese" and "输入里有中文" in got[len(TYPED)]["message"]


def test_random_typing_is_read_as_python_reads_it(exact_page):
    """1000 strings glued from the pieces a tokeniser trips over (contractions, clock times, Unicode digits,
    full-width forms, case-folding letters, odd spaces, Chinese, emoji): the page reads each as Python does."""
    rng = random.Random(31)
    pieces = list("abcxyzTOM'’s- ,.?!:;0123456789") + [
        "don't", "I'm", "6:30", "21st", "twenty", "-", "one", " ", "  ", "\t", "我", "。", "，", "？", "😀", "é", "İ",
        "ſ", "K", "٣", "١٢:٣٠", "<unk>", "<UNK>", "o'clock", "n't", "'s", "what", "how", "nice", "...", "ｆｕｌｌ", "①",
        "²", "\u00a0", "\u2028", "\x1c", "\ufeff", "what's", "cannot", "100", "101", "3rd", "22nd", "Xiaoming's"]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))) for _ in range(1000)]
    vocab = load_pretrained("none").src_vocab
    got = exact_page.evaluate("""texts => texts.map(s => { try { const r = NMT.read(s);
        return [r.tokens, r.surfaces, r.ids, r.unknown, r.truncated]; } catch (e) { return e.message; } })""", texts)
    for text, mine in zip(texts, got, strict=True):
        try:
            source = read_source(text, vocab)
        except HelpersError as err:
            assert mine == str(err).replace(PY_EXAMPLE, "'i am a student .'"), text
        else:
            assert mine == [source.tokens, source.surfaces, source.ids, source.unknown, source.truncated], text
    assert sum(isinstance(m, str) for m in got) > 10 and sum(isinstance(m, list) for m in got) > 500


# --- the site as shipped ------------------------------------------------------------------------------------


def test_the_export_command_gives_the_bytes_the_site_embeds(site, tmp_path):
    write_web_models(tmp_path)  # what make site runs, run again
    embedded = site / "_static" / "translator"
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted([DATA_FILE] + [model_file(n) for n in list_pretrained()])
    for name in names:
        assert (tmp_path / name).read_bytes() == (embedded / name).read_bytes(), name
    text = (embedded / model_file("luong-dot")).read_text(encoding="utf-8")
    weights = json.loads(text.split('["luong-dot"] = ', 1)[1].rstrip().removesuffix(";"))
    assert weights["dtype"] == "float16" and weights["count"] == sum(
        t.numel() for t in load_pretrained("luong-dot").state_dict().values())


@pytest.mark.timeout(300)
def test_the_sites_float16_page_gives_pytorchs_tokens(site_page):
    """Why the site may ship float16 (helpers.tools.webmodels): with the weights it ships, the page decodes
    every parity sentence to the tokens of the float32 PyTorch model."""
    names, texts = list_pretrained(), sentences()
    site_page.evaluate("names => Promise.all(names.map(n => NMT.load(n, '_static/translator/')))", names)
    got = page_runs(site_page, names, texts)
    figures = {name: compare(name, got["runs"][name], reference(name)) for name in names}
    print(f"float16 (site) on {len(texts)} sentences ({got['ms'] / 1000:.1f} s in the page):", figures)
    assert {name: f[0] for name, f in figures.items()} == {name: 0 for name in names}


def _cell_pixels(page, rows_cols):
    return page.evaluate("""cells => { const c = document.querySelector('.nmt-heatmap');
        const L = JSON.parse(c.dataset.layout), r = c.width / parseFloat(c.style.width), ctx = c.getContext('2d');
        return cells.map(([j, s]) => Array.from(ctx.getImageData(Math.round((L.left + (s + 0.3) * L.cell) * r),
            Math.round((L.top + (j + 0.25) * L.cell) * r), 1, 1).data).slice(0, 3)); }""", rows_cols)


def test_typing_a_sentence_shows_translation_copy_and_heatmap(site_page):
    sentence, name = "Xiaoming ate an apple yesterday", "luong-general"
    want = translate(load_pretrained(name), sentence)
    assert site_page.locator(".nmt-model").input_value() == name
    site_page.fill(".nmt-input", sentence)
    site_page.press(".nmt-input", "Enter")
    site_page.wait_for_function("document.querySelector('.nmt-app').dataset.state === 'done'")
    assert site_page.inner_text(".nmt-text") == want.text
    assert site_page.inner_text(".nmt-copied") == "Xiaoming" == want.copied[0].word
    layout = json.loads(site_page.get_attribute(".nmt-heatmap", "data-layout"))
    assert (layout["rows"], layout["cols"], layout["step"]) == (*want.attention.shape, 1)
    # step 1 is drawn: its darkest cell is the source word with the largest weight; later rows are grey
    row = want.attention[0]
    dark, light = int(np.argmax(row)), int(np.argmin(row))
    (r1, g1, b1), (r2, g2, b2), (r3, g3, b3) = _cell_pixels(site_page, [[0, dark], [0, light], [1, dark]])
    assert r1 + g1 + b1 < r2 + g2 + b2 - 200 and b1 > r1  # a dark blue against a light one
    assert r3 == g3 == b3  # row 2 not reached yet: grey
    assert site_page.evaluate("document.fonts.check('14px \"Noto Sans SC Subset\"', '昨天吃了')")
    top = site_page.locator(".nmt-top5 tbody tr")
    assert top.count() == 5 and "← 选中" in top.first.inner_text() and "Xiaoming" in top.first.inner_text()
    site_page.locator(".nmt-step").focus()
    site_page.keyboard.press("ArrowRight")  # step 2: its row now in colour
    assert json.loads(site_page.get_attribute(".nmt-heatmap", "data-layout"))["step"] == 2
    (r4, g4, b4), = _cell_pixels(site_page, [[1, int(np.argmax(want.attention[1]))]])
    assert b4 > r4 and r4 + g4 + b4 < 400
    assert f"“{want.tgt_tokens[1]}”" in site_page.inner_text(".nmt-step-caption")
    assert site_page.locator(".nmt-row-list li").count() == len(want.src_tokens)


def test_input_without_english_gets_the_chinese_message(site_page):
    site_page.fill(".nmt-input", "我是学生")
    site_page.press(".nmt-input", "Enter")
    site_page.wait_for_function("document.querySelector('.nmt-app').dataset.state === 'error'")
    with pytest.raises(HelpersError) as caught:
        translate(load_pretrained("luong-general"), "我是学生")
    assert site_page.inner_text(".nmt-error") == str(caught.value).replace(PY_EXAMPLE, "'i am a student .'")
    # the heatmap below is the previous sentence's (the page opens translating its example): it says so
    assert "仍是上一句" in site_page.inner_text(".nmt-status")
    site_page.fill(".nmt-input", "i am a student")
    site_page.press(".nmt-input", "Enter")
    site_page.wait_for_function("document.querySelector('.nmt-app').dataset.state === 'done'")
    assert "仍是上一句" not in site_page.inner_text(".nmt-status") and site_page.locator(".nmt-error").is_hidden()


def test_a_model_without_attention_shows_no_heatmap_but_the_top5(site_page):
    site_page.select_option(".nmt-model", "none")
    site_page.fill(".nmt-input", "i am a student")
    site_page.press(".nmt-input", "Enter")
    site_page.wait_for_function("document.querySelector('.nmt-app').dataset.state === 'done'")
    assert site_page.inner_text(".nmt-text") == translate(load_pretrained("none"), "i am a student").text
    assert site_page.locator(".nmt-heatmap").is_hidden() and site_page.locator(".nmt-no-attention").is_visible()
    assert site_page.locator(".nmt-top5 tbody tr").count() == 5


def test_the_bundled_font_draws_every_character_the_models_can_output():
    from fontTools.ttLib import TTFont

    font = ROOT / "helpers" / "viz" / "fonts" / "NotoSansSC-Subset.otf"
    drawn = set(TTFont(str(font)).getBestCmap())
    vocab = load_pretrained("luong-general").tgt_vocab.itos[4:]  # after <pad> <bos> <eos> <unk>
    characters = {ch for token in vocab for ch in token}
    assert len(characters) > 500 and "苹" in characters
    assert sorted(ch for ch in characters if ord(ch) not in drawn) == []
