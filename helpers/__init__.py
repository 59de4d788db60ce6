"""helpers: the companion library of the notebooks for section 9.10 "注意力机制" (attention).

One module per concept (see README, "代码结构"):

* ``attention``  masked softmax, score functions of Eq. (9-40), the Attention module (Eq. 9-37, 9-38)
* ``seq2seq``    encoder, decoders (none / Luong / Bahdanau), the Seq2Seq model (Fig. 9-25, Eq. 9-39)
* ``corpus``     the toy English->Chinese corpus with gold word alignments, tokenizer, vocabularies
* ``train``      training loop, checkpoints, command line
* ``decode``     batched greedy decoding and beam search; ``translate``
* ``metrics``    BLEU (char / word), exact match, alignment error rate (AER)
* ``viz``        static plots and the bundled Chinese font
* ``widgets``    the interactive explorers (ipywidgets) with static PNG fallbacks
* ``exercises``  checkers for the exercises, with Chinese hints

``load_pretrained`` and ``translate`` are imported lazily so that ``import helpers`` stays fast.
"""

from __future__ import annotations

from helpers.env import is_quick, pick_device, seed_everything
from helpers.errors import CheckpointError, EmptyInputError, HelpersError, ShapeError, UnknownWordError

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
