"""Why the unscaled luong-general model does not learn to align (the finding behind its recipe).

    python scripts/luong_general_study.py [--steps 1600] [--probe 200]

Trains luong-general twice with the shipped sizes (hidden 128, bidirectional GRU encoder, one thread,
no guided alignment): once with the book's general score h_tᵀ W_a h̄_s and once with it divided by
sqrt(H) (``scaled_score=True``). At a few steps it prints, on the first ``--probe`` validation pairs
(teacher forced): the mean max-α, the share of attention rows whose peak is the final source token,
and the AER. The finding is recorded in ``helpers/tools/pretrain.py``'s docstring.
"""

from __future__ import annotations

import argparse

import numpy as np
import torch

from helpers.corpus import load_corpus
from helpers.metrics import corpus_aer
from helpers.tools.evaluate import teacher_forced_attention
from helpers.tools.pretrain import RECIPES
from helpers.train import make_model, train

CHECKPOINTS = (25, 50, 100, 200, 400, 800, 1600, 3200)


def study(scaled: bool, steps: int, probe_size: int) -> list[dict]:
    sizes = {**RECIPES["luong-general"]["sizes"], "scaled_score": scaled, "input_feeding": False}
    model = make_model("luong-general", seed=0, **sizes)
    probe = load_corpus("valid")[:probe_size]
    rows = []

    def measure(hist):
        if hist.steps not in CHECKPOINTS:
            return
        attention = teacher_forced_attention(model, probe)
        model.train()
        peaks = np.concatenate([a.max(axis=1) for a in attention])
        on_last = np.concatenate([a.argmax(axis=1) == a.shape[1] - 1 for a in attention])
        aer = corpus_aer(attention, [p.sure for p in probe], [p.possible for p in probe])
        rows.append({"step": hist.steps, "max_alpha": float(peaks.mean()), "on_last": float(on_last.mean()),
                     "aer": aer})
        print(f"{'scaled' if scaled else 'book  '}  step {hist.steps:5d}  mean max-α {peaks.mean():.3f}  "
              f"rows on the final token {on_last.mean():.1%}  AER {aer:.3f}", flush=True)

    train(model, load_corpus("train"), False, steps=steps, batch_size=64, lr=3e-3, seed=0, progress=False,
          callback=measure, callback_every=25, device="cpu", threads=1)
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=1600)
    p.add_argument("--probe", type=int, default=200)
    a = p.parse_args(argv)
    torch.set_num_threads(1)
    for scaled in (False, True):
        study(scaled, a.steps, a.probe)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
