"""Export the shipped models and the tokeniser's tables for the website's in-page translator.

``python -m helpers.tools.webmodels --out DIR`` writes, for ``site/_static/translator/nmt.js`` (the plain
JavaScript forward pass, greedy and beam decoding, tokeniser and unknown-word copy):

* ``DIR/nmt-data.js``: one ``<script>`` that sets ``window.NMT_DATA`` = the tokeniser's tables
  (``helpers.corpus.tokenizer``: the full-width map, contractions, number words, question starts …),
  the limits of ``helpers.translation.source`` (60 tokens, 40 characters a token), the source and target
  vocabularies, and one record per shipped model (config, decoding, label, the weight file's name);
* ``DIR/model-<name>.js``: one per model in ``helpers/pretrained/``, setting
  ``window.NMT_WEIGHTS["<name>"]`` = {tensor names, shapes, offsets, dtype, and the weights as base64 of
  little-endian float16 or float32 (``--precision``)}.

**Precision.** The site ships **float16** (``SITE_PRECISION``), and the reason is size: the six models
hold 3.5 M numbers, 13.3 MB as float32 and 17.8 MB as base64 text, while the site without them is
about 22 MB (6 MB of it the 05a / 07a player frames, palette PNGs since the explorer gained its top-5
and beam panels) and must stay under 40 MB with room to grow; float16 is 8.9 MB of text (site: 30.8 MB). What float16 costs, measured (``tests/test_site_translator.py`` checks the first two):
the 200 test sentences and 60 learner sentences of the parity tests decode to the same tokens with every
model; over the whole 1000-sentence test split 7 of 6360 (sentence, model) decodes change; the
attention moves by up to 8e-4. The JavaScript forward pass itself is exact to float32 rounding: run on
the float32 export it matches PyTorch's attention to 1e-4 and its tokens exactly, which the parity
tests check on the float32 export (``--precision float32``). Remove the frames, or accept a bigger
site, and ``SITE_PRECISION = "float32"`` ships the exact weights (nothing else changes).

Why ``<script>`` files and not JSON fetched at run time: a page opened from ``file://`` may not
``fetch()`` its neighbours (Chromium refuses), but it may load scripts. The page loads the data file
with itself, the default model's file at once, and another model's file when the reader picks it.

Where: ``make site`` (``helpers.tools.site``) calls ``write_web_models`` into the build's
``src/_static/translator`` every time, like the widget frames: the files are derived from the
committed ``helpers/pretrained/*.pt`` and so can never be stale, and the 18 MB of base64 text is not
committed a second time. The output is deterministic (sorted keys, no time stamps): the same
checkpoints give the same bytes, which ``tests/test_site_translator.py`` checks.
"""

from __future__ import annotations

import argparse
import base64
import functools
import json
import re
from pathlib import Path

import numpy as np

__all__ = ["DATA_FILE", "MODEL_LABELS", "export_model", "main", "model_file", "tokenizer_tables", "web_data",
           "write_web_models", "PRECISIONS", "SITE_PRECISION", "check_precision"]

DATA_FILE = "nmt-data.js"
PRECISIONS = ("float32", "float16")
SITE_PRECISION = "float16"  # what make site ships: see the module docstring
MODEL_LABELS = {  # the model picker's labels, in the picker's order
    "luong-general": "Luong general（输入馈送 input feeding）",
    "luong-dot": "Luong dot（点积）",
    "luong-concat": "Luong concat（拼接）",
    "bahdanau": "Bahdanau（加性 additive）",
    "rnnencdec": "RNNencdec（无注意力，每步都看 c）",
    "none": "none（无注意力，9.9 节的基线）",
}


def model_file(name: str) -> str:
    return f"model-{name}.js"


@functools.lru_cache(maxsize=1)
def _case_folds() -> dict:
    """{ascii letter: the other characters ``re`` matches for it under IGNORECASE}, letters with any."""
    folds = {}
    for code in range(0x80, 0x110000):
        char = chr(code)
        match = re.fullmatch("[a-z]", char, re.IGNORECASE)
        if match:
            letter = next(x for x in "abcdefghijklmnopqrstuvwxyz" if re.fullmatch(x, char, re.IGNORECASE))
            folds[letter] = folds.get(letter, "") + char
    return dict(sorted(folds.items()))


def tokenizer_tables() -> dict:
    """The data the JavaScript tokeniser needs, read from ``helpers.corpus.tokenizer`` (its rules are in nmt.js)."""
    from helpers.corpus import tokenizer as tk
    from helpers.translation import source

    return {
        "fullwidth": {chr(k): v for k, v in sorted(tk._FULLWIDTH.items())},
        "contractions": dict(sorted(tk.CONTRACTIONS.items())),
        "suffixes": [[k, v] for k, v in tk._SUFFIXES.items()],  # order matters: the first that matches
        "keep": sorted(tk._KEEP),
        "units": list(tk._UNITS),
        "ordinals": list(tk._ORDINALS),
        "tens": {str(k): v for k, v in sorted(tk._TENS.items())},
        "tens_ordinals": {str(k): v for k, v in sorted(tk._TENS_ORDINALS.items())},
        "question_starts": sorted(tk.QUESTION_STARTS),
        "not_question_second": {k: sorted(v) for k, v in sorted(tk._NOT_QUESTION_SECOND.items())},
        "end": sorted(tk._END),
        "drop_at_end": sorted(tk._DROP_AT_END),
        # what Python's re module matches that a JavaScript class written the same way would not:
        # the non-ASCII characters a letter matches under re.IGNORECASE ("K" for k) and \s
        "folds": _case_folds(),
        "whitespace": "".join(c for c in map(chr, range(0x110000)) if re.fullmatch(r"\s", c)),
        "max_src_tokens": source.MAX_SRC_TOKENS,
        "max_token_chars": source.MAX_TOKEN_CHARS,
    }


def export_model(model, precision: str = "float32") -> tuple[dict, dict]:
    """(record for nmt-data.js, weights for model-<name>.js) of one loaded model; ``precision`` of the
    stored numbers: "float32" or "float16" (nmt.js widens float16 to float32 when it loads them)."""
    from helpers.decode import shipped_decoding

    dtype = {"float32": "<f4", "float16": "<f2"}[check_precision(precision)]
    names, shapes, offsets, chunks, offset = [], [], [], [], 0
    for name, tensor in model.state_dict().items():
        array = np.ascontiguousarray(tensor.detach().cpu().numpy().astype(dtype))
        names.append(name)
        shapes.append(list(array.shape))
        offsets.append(offset)  # in elements (numbers), not bytes
        offset += array.size
        chunks.append(array.tobytes())
    weights = {"names": names, "shapes": shapes, "offsets": offsets, "count": offset, "dtype": precision,
               "base64": base64.b64encode(b"".join(chunks)).decode("ascii")}
    record = {"name": model.name, "label": MODEL_LABELS.get(model.name, model.name), "config": model.config,
              "decoding": shipped_decoding(model), "file": model_file(model.name),
              "sha256": model.meta.get("weights_sha256", "")}
    return record, weights


def check_precision(precision) -> str:
    if precision not in PRECISIONS:
        from helpers.runtime.errors import HelpersError

        raise HelpersError(f"precision 只能是 {list(PRECISIONS)} 之一 (unknown precision)，实际 (got) {precision!r}。")
    return precision


def web_data(names=None, precision: str = SITE_PRECISION) -> tuple[dict, dict]:
    """(the content of nmt-data.js, {name: weights}) for the shipped models ``names`` (default: all)."""
    from helpers.checkpoint import list_pretrained, load_pretrained
    from helpers.runtime.errors import HelpersError

    shipped = list_pretrained()
    names = [n for n in MODEL_LABELS if n in shipped] + [n for n in shipped if n not in MODEL_LABELS] \
        if names is None else list(names)
    models, weights, vocabs = [], {}, None
    for name in names:
        model = load_pretrained(name)
        these = {"src": list(model.src_vocab.itos), "tgt": list(model.tgt_vocab.itos)}
        if vocabs is None:
            vocabs = these
        elif these != vocabs:
            raise HelpersError(f"模型 {name} 的词表与其他模型不同 (vocabularies differ)：网页版假设所有模型共用词表。"
                               "请用 make pretrained 重新训练全部模型。")
        record, weights[name] = export_model(model, precision)
        models.append(record)
    data = {"tokenizer": tokenizer_tables(), "vocab": vocabs, "models": models}
    return data, weights


def _script(variable: str, key: str | None, value) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    target = f'window.{variable}' if key is None else f'window.{variable}[{json.dumps(key)}]'
    head = f"window.{variable} = window.{variable} || {{}};\n" if key is not None else ""
    return f"// generated by python -m helpers.tools.webmodels: do not edit\n{head}{target} = {text};\n"


def write_web_models(out_dir, names=None, precision: str = SITE_PRECISION) -> dict:
    """Write nmt-data.js and model-<name>.js into ``out_dir``; returns {"files": [...], "bytes": total}."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    data, weights = web_data(names, precision)
    files = {DATA_FILE: _script("NMT_DATA", None, data)}
    for name, w in weights.items():
        files[model_file(name)] = _script("NMT_WEIGHTS", name, w)
    total = 0
    for file_name, text in files.items():
        raw = text.encode("utf-8")
        (out_dir / file_name).write_bytes(raw)
        total += len(raw)
    return {"files": sorted(files), "bytes": total}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m helpers.tools.webmodels", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder to write nmt-data.js and model-*.js into")
    parser.add_argument("--precision", choices=PRECISIONS, default=SITE_PRECISION,
                        help=f"stored precision of the weights (default {SITE_PRECISION}, what the site ships)")
    args = parser.parse_args(argv)
    result = write_web_models(args.out, precision=args.precision)
    print(f"网页版模型已导出 (web models written)：{args.out}，{len(result['files'])} 个文件，"
          f"{result['bytes'] / 2**20:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
