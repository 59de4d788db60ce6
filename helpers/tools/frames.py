"""Precomputed frames of the two step widgets, for the companion website (no kernel needed there).

``python -m helpers.tools.frames OUT_DIR`` drives the widgets headless, exactly as a student would
(set the model, the sentence, then every value of the step slider) and stores what they draw:

* ``OUT_DIR/step/``: ``StepThrough`` of notebook 05 (Fig. 9-25, one decoding step), for every shipped
  Luong model;
* ``OUT_DIR/explorer/``: ``AttentionExplorer`` of notebook 07a (the alignment heatmap), for every
  shipped model with attention;

each for a few example sentences of DESIGN.md §4 and every decoding step (the last one emits
``<eos>``). Each folder holds one PNG per step (the widget's own PNG, byte for byte) and
``index.json``::

    {"widget": "StepThrough", "models": [{"name": ..., "label": ...}], "sentences": [...],   # label names the model
     "runs": [{"model": ..., "sentence": ..., "translation": ...,
               "steps": [{"t": 1, "token": "我", "source": "i", "weight": 0.93, "image": "luong-dot/s0-t01.png"}]}]}

``t`` counts from 1 (t = 1 is the first output token), whatever the widget's slider counts from.
The frames come from the shipped models in ``helpers/pretrained``: after ``make pretrained`` rerun
this command (``make site`` does).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

__all__ = ["EXAMPLE_SENTENCES", "explorer_runs", "main", "step_runs", "write_frames"]

# indices into helpers.corpus.design_examples(): the book's sentence, then three reorderings
EXAMPLE_SENTENCES = (0, 1, 3, 2)
DEFAULT_MODEL = "luong-general"  # what both notebooks show first; the players start with it too


def _sentences() -> list[str]:
    from helpers.corpus import design_examples
    from helpers.widgets.explorer import sentence_text

    pairs = design_examples()
    return [sentence_text(pairs[k].src) for k in EXAMPLE_SENTENCES]


def palette_png(data: bytes) -> bytes:
    """The widget's PNG with a 256-colour palette: about 40 % of the bytes, no visible change.

    The frames are flat plot colours plus one Blues colour map, which 256 colours hold (no dithering,
    so the cells stay flat); the explorer pictures grew with the top-5 and beam panels and the site
    must stay under its size limit (helpers.tools.site.SIZE_LIMIT_MB) with the translator's weights.
    Deterministic: the same picture gives the same bytes.
    """
    import io

    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        quantized = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                                                  dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantized.save(out, "PNG", optimize=True)
    return out.getvalue()


def _write_png(folder: Path, name: str, data: bytes) -> str:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(palette_png(data))
    return path.relative_to(folder).as_posix()


def step_runs(folder: Path, sentences: list[str]) -> dict:
    """Frames of ``StepThrough`` (notebook 05) for every shipped Luong model; returns the index."""
    from helpers.checkpoint import list_pretrained
    from helpers.widgets.step import SCORE_LABELS, StepThrough

    names = sorted((n for n in SCORE_LABELS if n in list_pretrained()), key=lambda n: n != DEFAULT_MODEL)
    # the picker chooses a model: its name first, then the score function (Eq. 9-40) it was trained with
    models = [{"name": n, "label": f"{n}（{n.removeprefix('luong-')} 打分）", "score": SCORE_LABELS[n]} for n in names]
    runs = []
    widget = None
    for name in names:
        for k, sentence in enumerate(sentences):
            if widget is None:
                widget = StepThrough(sentence, score=name)
            else:
                widget.score.value = name
                widget.sentence.value = sentence
            src_tokens = widget._trace.src_tokens  # as the widget read it (a final mark added where missing)
            steps = []
            for value in range(widget.step.min, widget.step.max + 1):
                widget.step.value = value
                trace = widget.trace
                peak = int(trace.alpha.argmax())
                image = _write_png(folder, f"{name}/s{k}-t{trace.t:02d}.png", bytes(widget.image.value))
                steps.append({"t": trace.t, "token": trace.token, "source": src_tokens[peak],
                              "weight": round(float(trace.alpha[peak]), 2), "image": image})
            translation = "".join(s["token"] for s in steps if s["token"] != "<eos>")
            runs.append({"model": name, "sentence": sentence, "translation": translation, "steps": steps})
    return {"widget": "StepThrough", "notebook": "05a_computation_steps", "models": models,
            "sentences": sentences, "runs": runs}


def explorer_runs(folder: Path, sentences: list[str]) -> dict:
    """Frames of ``AttentionExplorer`` (notebook 07a) for every shipped attention model; returns the index."""
    from helpers.checkpoint import list_pretrained
    from helpers.widgets.explorer import ATTENTION_MODELS, AttentionExplorer, default_model

    # the player opens on its first model: the one the notebook's explorer opens on (``default_model``)
    names = sorted((n for n in ATTENTION_MODELS if n in list_pretrained()), key=lambda n: n != default_model())
    models = [{"name": n, "label": n} for n in names]
    runs = []
    widget = None
    for name in names:
        for k, sentence in enumerate(sentences):
            if widget is None:
                widget = AttentionExplorer(model=name, sentence=sentence)
            else:
                widget.model.value = name
                widget.sentence.value = sentence
            tgt = list(widget.translation.tgt_tokens)
            steps = []
            for j, value in enumerate(range(widget.step.min, widget.step.max + 1)):
                widget.step.value = value
                t = j + 1  # counted from 1, whatever the slider counts from
                source, weight = widget.top_words(1)[0]
                image = _write_png(folder, f"{name}/s{k}-t{t:02d}.png", bytes(widget.image.value))
                steps.append({"t": t, "token": tgt[j] if j < len(tgt) else "<eos>", "source": source,
                              "weight": round(float(weight), 2), "image": image})
            runs.append({"model": name, "sentence": sentence, "translation": widget.translation.text,
                         "steps": steps})
    return {"widget": "AttentionExplorer", "notebook": "07a_heatmaps", "models": models,
            "sentences": sentences, "runs": runs}


def write_frames(out_dir: Path) -> dict:
    """Render both widgets' frames into ``out_dir/step`` and ``out_dir/explorer``; returns
    ``{"step": n_frames, "explorer": n_frames, "seconds": s}``."""
    import torch

    from helpers.viz import setup_chinese_font

    torch.set_num_threads(1)  # same pictures on a loaded laptop, and no fight with other jobs
    setup_chinese_font()
    start = time.perf_counter()
    out_dir = Path(out_dir)
    sentences = _sentences()
    counts = {}
    for kind, build in (("step", step_runs), ("explorer", explorer_runs)):
        folder = out_dir / kind
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.rglob("*.png"):
            old.unlink()
        index = build(folder, sentences)
        (folder / "index.json").write_text(json.dumps(index, ensure_ascii=False, indent=1), encoding="utf-8")
        counts[kind] = sum(len(run["steps"]) for run in index["runs"])
    counts["seconds"] = round(time.perf_counter() - start, 1)
    return counts


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0].startswith("-"):
        print("用法 (usage)：python -m helpers.tools.frames OUT_DIR", file=sys.stderr)
        return 2
    counts = write_frames(Path(args[0]))
    print(f"帧 (frames)：StepThrough {counts['step']} 张，AttentionExplorer {counts['explorer']} 张，"
          f"用时 {counts['seconds']} s -> {args[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
