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
