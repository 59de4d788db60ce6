"""Modal verbs and the future (syllabus: be going to, will, would like, want to, have to, can, could,
should, must, may, let's): i am going to visit my grandmother this weekend -> 我 这 个 周末 要 去 看望
我 奶奶 (打算 as another reference), could you help me ? -> 你 能 帮 我 吗 ？.

The patterns are the rows of ``data/modals.tsv``, their verb phrases those of ``data/activities.tsv``;
the time phrase moves before the modal in Chinese (S T 要 VP), a skill takes 会 (can swim -> 会 游泳)
and a permission 可以 (may i come in ? -> 我 可以 进来 吗 ？).
"""

from __future__ import annotations

from helpers.corpus.families.slots import render_row, sample_row

TABLE = "modals"


def sample(rng) -> dict:
    return sample_row(rng, TABLE)


def render(spec):
    return render_row(spec)
