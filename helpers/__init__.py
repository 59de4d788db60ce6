"""helpers: the companion library of the notebooks for section 9.10 "注意力机制" (attention).

The top level is the chapter; everything else lives in a folder named after its role.

* ``attention``   masked softmax, the score functions of Eq. (9-40), ``Attention`` (Eq. 9-37, 9-38), hard / soft
* ``decoders``    the decoders: none (9.9 baseline), rnnencdec (c at every step, Cho et al. 2014), Luong
  (Eq. 9-39, input feeding), Bahdanau
* ``seq2seq``     the encoder and the ``Seq2Seq`` model that joins it to a decoder (Fig. 9-25)
* ``train`` / ``decode`` / ``checkpoint`` / ``metrics``   the workflow around a model: training loop,
  greedy and beam decoding (``translate``), safe checkpoints (``load_pretrained``), BLEU / exact match / AER
* ``translation/``  what ``translate`` uses: the typed source, unknown-word copy, long-sentence decoding rules
* ``speedups/``   fast paths with the same formulas (the teacher-forced loops of Bahdanau and Luong)
* ``analysis/``   analyses of trained models: attention probes, gradient attribution, heatmap rows, examples
* ``extras/``     the book's extras shown in lessons: kernel regression, padding, local-p
* ``runtime/``    run-time switches (quick mode, seeding, set-up check), the bilingual error types, guarded
  file I/O
* ``corpus/``     the toy English→Chinese corpus with gold word alignments, tokenizer, vocabularies
* ``viz/``        the bundled Chinese font, ``plot_attention``, the shared plots and teaching figures
* ``widgets/``    the interactive explorers (ipywidgets), each with a static PNG fallback
* ``exercises/``  the 练习 checkers (``EXERCISES``, ``check``) with Chinese hints, and the reveal cells' code
* ``grading/``    the teachers' grade command (``python -m helpers.grading``)
* ``tools/``      maintainer commands that notebooks never import: bench, evaluate, pretrain, notebooks, site
* ``pretrained/`` the shipped weights and their metadata

The error types and the run-time switches are re-exported here: ``helpers.HelpersError``,
``helpers.is_quick``, ``helpers.seed_everything``.

A reader starts with ``from helpers import load_pretrained, translate`` and ``helpers.attention``.
``load_pretrained`` and ``translate`` are imported lazily so that ``import helpers`` stays fast.
"""

from __future__ import annotations

from helpers.runtime.env import is_quick, pick_device, seed_everything
from helpers.runtime.errors import (
    CheckpointError,
    EmptyInputError,
    HelpersError,
    ShapeError,
    UnknownWordError,
)

__version__ = "0.1.0"

_LAZY = {
    "load_pretrained": ("helpers.checkpoint", "load_pretrained"),
    "load_checkpoint": ("helpers.checkpoint", "load_checkpoint"),
    "save_checkpoint": ("helpers.checkpoint", "save_checkpoint"),
    "translate": ("helpers.decode", "translate"),
}

__all__ = [
    "CheckpointError",
    "EmptyInputError",
    "HelpersError",
    "ShapeError",
    "UnknownWordError",
    "is_quick",
    "pick_device",
    "seed_everything",
    *_LAZY,
]


def __getattr__(name):
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'helpers' has no attribute {name!r}")
