"""Precomputed local-p results for notebook 05b (a lab): train once, ship a small JSON, show it in class.

Training a local-p model (``helpers.extras.localp.train_local_p``) takes minutes, too long for a class. The
maintainer command ::

    python -m helpers.extras.localp_results            # full budget: STEPS steps, window D = WINDOW
    python -m helpers.extras.localp_results --steps 50 --out /tmp/localp.json

trains it and writes ``RESULTS_PATH`` (helpers/extras/localp_results.json); the notebook loads it with
``load_results()`` and can retrain live instead. The file holds two runs of ``compute_results``: the
full one the notebook shows, and a tiny one (``TINY``) that ``tests/test_localp.py`` recomputes, so a
change of the corpus or the model that would change the shipped numbers fails a test.

Window D = 10 as in Luong et al. 2015 §3.2 (the earlier D = 2 left p_t no gradient for most words).
What is stored, per run: the training budget and validation char-BLEU; ``centre_errors`` of the model
before and after training on the first ``n_valid`` validation pairs; the same by source length; the
(gold, p_t) points of the scatter; and, for one demo pair (``demo_pair``), the teacher-forced local-p
weights, so the notebook can draw global / local-m / local-p / gold side by side (Luong Fig. 7).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path

import numpy as np

from helpers.runtime.errors import HelpersError

__all__ = ["RESULTS_PATH", "STEPS", "TINY", "WINDOW", "compute_results", "demo_pair", "load_results",
           "local_m_from_global", "main"]

RESULTS_PATH = Path(__file__).resolve().parent / "localp_results.json"
WINDOW = 10  # D, as in Luong et al. 2015
STEPS = 2000
TINY = {"steps": 3, "n_valid": 20, "n_group": 10}  # the run the tests recompute


def _round(x, digits=4):
    if isinstance(x, float):
        return round(x, digits)
    if isinstance(x, dict):
        return {k: _round(v, digits) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_round(v, digits) for v in x]
    return x


def demo_pair(pairs, window: int = WINDOW):
    """The demo sentence: the first pair of at most 22 source tokens with a sure link more than ``window``
    positions off the diagonal (so local-m's window misses it, as in Luong Fig. 7's reordered words)."""
    for p in pairs:
        if len(p.src) <= 22 and any(abs(i - j) > window for i, j in p.sure):
            return p
    raise HelpersError(f"找不到演示句 (no demo pair)：没有一个不超过 22 个词、有链接偏离对角线超过 {window} 个位置的句子。")


def local_m_from_global(alpha, window: int) -> np.ndarray:
    """local-m (E3) from global weights [T, S]: keep |s − min(t, S)| ≤ D and renormalise each row.

    A softmax inside the window is the global softmax restricted to it and renormalised, because
    both divide the same exp(score) by a sum; so the global weights give local-m exactly.
    """
    alpha = np.asarray(alpha, dtype=float)
    T, S = alpha.shape
    s = np.arange(1, S + 1)
    out = np.zeros_like(alpha)
    for t in range(1, T + 1):
        inside = np.abs(s - min(t, S)) <= window
        total = alpha[t - 1, inside].sum()
        if total > 0:
            out[t - 1, inside] = alpha[t - 1, inside] / total
    return out


def compute_results(steps: int, *, window: int = WINDOW, seed: int = 0, threads: int = 1, n_valid: int = 300,
                    n_group: int = 300, progress: bool = False) -> dict:
    """Train a local-p model for ``steps`` steps and measure it (a JSON-ready dict, floats rounded)."""
    from helpers.corpus import load_corpus
    from helpers.extras.localp import (
        centre_errors,
        gold_positions,
        make_local_model,
        train_local_p,
        window_centres,
    )
    from helpers.tools.evaluate import teacher_forced_attention

    valid_all = load_corpus("valid")
    valid = valid_all[:n_valid]
    untrained = make_local_model(window, seed).eval()
    model, history = train_local_p(steps, window=window, seed=seed, threads=threads, progress=progress)
    groups = {"3-20": [p for p in valid_all if len(p.src) <= 20][:n_group],
              "21-40": [p for p in valid_all if len(p.src) > 20][:n_group],
              "41-60": load_corpus("long")[:n_group]}
    gold, pred = [], []
    for pair, p in zip(valid, window_centres(model, valid)):
        g = gold_positions(pair)
        keep = ~np.isnan(g)
        gold += g[keep].tolist()
        pred += p[keep].tolist()
    demo = demo_pair(valid_all, window)
    demo_weights = teacher_forced_attention(model, [demo])[0]
    return _round({
        "window": window, "steps": history.steps, "seed": seed, "best_bleu": float(history.best_bleu),
        "n_valid": len(valid),
        "before": asdict(centre_errors(untrained, valid)), "after": asdict(centre_errors(model, valid)),
        "by_length": {label: {"n": len(pairs), "mean_S": float(np.mean([len(p.src) for p in pairs])),
                              **asdict(centre_errors(model, pairs))} for label, pairs in groups.items()},
        "points": {"gold": [float(g) for g in gold], "pred": [round(float(p), 2) for p in pred]},
        "demo": {"src": list(demo.src), "tgt": list(demo.tgt), "weights": demo_weights.tolist(),
                 "positions": window_centres(model, [demo])[0].tolist()},
    })


def load_results(path=RESULTS_PATH) -> dict:
    """The shipped full run (``{"full": ..., "tiny": ...}["full"]``)."""
    path = Path(path)
    if not path.exists():
        raise HelpersError(f"没有预先算好的 local-p 结果 (missing) {path.name}：请运行 python -m helpers.extras.localp_results，"
                           "或在笔记本里设 TRAIN_LIVE = True 现场训练。")
    return json.loads(path.read_text(encoding="utf-8"))["full"]


def main(argv=None) -> Path:
    parser = argparse.ArgumentParser(description="Train the local-p model of notebook 05b and write its results.")
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--out", type=Path, default=RESULTS_PATH)
    args = parser.parse_args(argv)
    record = {"full": compute_results(args.steps, progress=True), "tiny": compute_results(**TINY)}
    args.out.write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e3:.0f} kB)")
    return args.out


if __name__ == "__main__":
    main()
