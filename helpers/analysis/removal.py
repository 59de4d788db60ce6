"""The peak-removal experiment of notebook 07b (§3) over several models and splits, with its controls.

``removal_experiment(models, splits)`` runs ``helpers.analysis.probes.peak_removal`` for every (split, model)
with the four edits: ``peak`` (the key with the largest weight removed), and the controls ``second``
(the second-largest key), ``equal_mass`` (as much weight as the peak's taken from the other keys) and
``random`` (one other key, drawn with a generator seeded ``seed`` afresh for each run, so a result
does not depend on the order of the runs). ``removal_rows(removal)`` gives the rows of the notebook's
table, in the order of ``REMOVAL_HEADERS``.
"""

from __future__ import annotations

import torch

from helpers.analysis.probes import peak_removal, remove_equal_mass, remove_peak, remove_random, remove_second

REMOVAL_HEADERS = ["子集", "模型", "解码步数", "峰值的平均权重", "去掉峰值：词变了", "去掉第二大的键：变了",
                   "等量拿走其余的权重：变了", "随机去掉另一个键：变了", "去掉峰值：原词概率平均下降"]


def removal_edits(seed: int = 0) -> dict:
    """The four edits by name, the random one with a fresh generator seeded ``seed``."""
    return {"peak": remove_peak, "random": remove_random(torch.Generator().manual_seed(seed)),
            "second": remove_second, "equal_mass": remove_equal_mass}


def removal_experiment(models: dict, splits: dict, seed: int = 0) -> dict:
    """{(split name, model name): RemovalResult} for every split ``{name: pairs}`` and model ``{name: model}``."""
    return {(split, name): peak_removal(model, pairs, removal_edits(seed))
            for split, pairs in splits.items() for name, model in models.items()}


def removal_rows(removal: dict) -> list[list]:
    """One table row per (split, model), the columns of ``REMOVAL_HEADERS``."""
    return [[split, name, r.steps, r.peak_weight, r.changed["peak"], r.changed["second"], r.changed["equal_mass"],
             r.changed["random"], r.prob_drop["peak"]] for (split, name), r in removal.items()]


# --------------------------------------------------------------------------- how much weight each edit removed
# remove_equal_mass can take only min(peak, 1 - peak) from the other keys: for a sharp model (peak > 0.5 at most
# steps) it removes far less weight than remove_peak, so the shares of the main table do not separate "which key"
# from "how much weight". The two views below compare the edits at equal weight removed; "weight removed" is
# how far the row moved (half the L1 distance, ``RemovalResult.step_removed``).

MASS_BINS = ((0.0, 0.1), (0.1, 0.3), (0.3, 0.5), (0.5, 1.0))  # [low, high) of the weight an edit removed
EDIT_NAMES = {"peak": "去掉峰值", "second": "去掉第二大的键", "equal_mass": "等量拿走其余的权重", "random": "随机去掉另一个键"}
REMOVED_HEADERS = ["模型", "解码步数", "峰值 > 0.5 的步骤", "去掉峰值：平均拿走的权重", "等量对照：平均拿走的权重",
                   "第二大的键：平均拿走的权重"]
SOFT_HEADERS = ["模型", "峰值 ≤ 0.5 的步骤数", "峰值的平均权重", "去掉峰值：词变了", "等量拿走其余的权重：变了",
                "去掉第二大的键：变了"]


def _mean(xs) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def removed_rows(removal: dict, split: str = "test") -> list[list]:
    """Per model of ``split``: steps, share of steps with peak > 0.5, mean weight removed by peak / equal mass / second."""
    return [[name, r.steps, _mean([p > 0.5 for p in r.step_peak]), _mean(r.step_removed["peak"]),
             _mean(r.step_removed["equal_mass"]), _mean(r.step_removed["second"])]
            for (s, name), r in removal.items() if s == split]


def soft_step_rows(removal: dict, split: str = "test", limit: float = 0.5) -> list[list]:
    """Per model of ``split``, only the steps whose peak weight is at most ``limit`` (there the equal-mass control
    takes as much weight from the other keys as the peak has, before renormalising): how many, their mean peak,
    and the share of changed words per edit."""
    rows = []
    for (s, name), r in removal.items():
        if s != split:
            continue
        keep = [i for i, p in enumerate(r.step_peak) if p <= limit]
        rows.append([name, len(keep), _mean([r.step_peak[i] for i in keep]),
                     *(_mean([r.step_changed[e][i] for i in keep]) for e in ("peak", "equal_mass", "second"))])
    return rows


def mass_bin_rows(removal: dict, split: str = "test", bins=MASS_BINS, edits=("peak", "equal_mass", "second")) -> list:
    """All models of ``split`` pooled: for each bin of weight removed, per edit (steps in the bin, share changed).
    Rows: [bin label, n_peak, changed_peak, n_equal, changed_equal, n_second, changed_second] (share None if n = 0)."""
    rows = []
    for low, high in bins:
        row = [f"{low:.1f}–{high:.1f}"]
        for e in edits:
            hits = [c for (s, _), r in removal.items() if s == split
                    for c, m in zip(r.step_changed[e], r.step_removed[e], strict=True)
                    if low <= m < high or (high >= 1.0 and m >= high)]
            row += [len(hits), _mean(hits) if hits else None]
        rows.append(row)
    return rows


MASS_BIN_HEADERS = ["拿走的权重", "去掉峰值：步数", "去掉峰值：词变了", "等量对照：步数", "等量对照：词变了",
                    "第二大的键：步数", "第二大的键：词变了"]
