"""Seconds per training step of each shipped recipe, for batches of short and of long sentences.

Usage:  python scripts/step_timing.py [--lengths 8 20 30] [--repeats 5] [--steps 5] [--models none bahdanau ...]

One torch thread (as ``make pretrained`` trains), batch 64, the recipe's sizes from
``helpers.tools.pretrain.RECIPES``. Every sentence of a batch has the same source length S and target
length T = S (the corpus's Chinese side is about as long as its English side), random token ids: the
cost of a step depends only on the shapes. Forward + backward + gradient clipping + Adam, as in
``helpers.train``. Prints the median of ``repeats`` timings of ``steps`` steps each.
"""

from __future__ import annotations

import argparse
import statistics
import time

import torch


def step_seconds(name: str, length: int, repeats: int = 5, steps: int = 5, batch: int | None = None,
                 sizes: dict | None = None) -> float:
    """Median wall seconds of one training step of recipe ``name`` on a [B, length] batch, one thread."""
    from torch import nn

    from helpers.tools.pretrain import RECIPES
    from helpers.train import make_model, masked_loss

    recipe = RECIPES[name]
    B = batch or recipe["batch_size"]
    model = make_model(name, seed=0, **(sizes or recipe["sizes"]))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    gen = torch.Generator().manual_seed(0)
    src = torch.randint(4, model.src_vocab_size, (B, length), generator=gen)  # [B, S]
    lens = torch.full((B,), length, dtype=torch.long)  # [B]
    tgt = torch.randint(4, model.tgt_vocab_size, (B, length + 1), generator=gen)  # [B, T + 1]

    def run(n):
        for _ in range(n):
            logits, _ = model(src, lens, tgt[:, :-1])  # [B, T, V]
            loss = masked_loss(logits, tgt[:, 1:])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()

    run(2)  # warm-up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        run(steps)
        times.append((time.perf_counter() - t0) / steps)
    return statistics.median(times)


def main(argv=None) -> None:
    from helpers.checkpoint import PRETRAINED_NAMES

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lengths", type=int, nargs="+", default=[8, 20])
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--models", nargs="+", default=list(PRETRAINED_NAMES))
    a = p.parse_args(argv)
    torch.set_num_threads(1)
    print("| model | " + " | ".join(f"S = T = {n}" for n in a.lengths) + " |")
    print("|---|" + "---|" * len(a.lengths))
    for name in a.models:
        cells = [f"{step_seconds(name, n, a.repeats, a.steps) * 1000:.0f} ms" for n in a.lengths]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
