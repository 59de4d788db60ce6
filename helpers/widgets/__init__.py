"""Interactive explorers (ipywidgets 8 + matplotlib PNG), each with a static ``image/png`` fallback.

* ``TemperatureDemo``  (00) softmax bars of a few scores under a temperature slider
* ``Spotlight``        (02) a movable focus that dims the rest of an image, Fig. 9-23's idea
* ``RetrievalToy``     (04) the video-site retrieval analogy of Fig. 9-24, soft -> hard by temperature
* ``StepThrough``      (05) one decoding step of Fig. 9-25, Eq. (9-37)-(9-40)
* ``AttentionExplorer``(03, 07a) alignment heatmaps of the pretrained models

The classes live in ``toys``, ``step`` and ``explorer`` (on ``base.PngBox``); this module is the public door.
"""

from __future__ import annotations

_WHERE = {
    "TemperatureDemo": "helpers.widgets.toys",
    "Spotlight": "helpers.widgets.toys",
    "RetrievalToy": "helpers.widgets.toys",
    "StepThrough": "helpers.widgets.step",
    "AttentionExplorer": "helpers.widgets.explorer",
}

__all__ = list(_WHERE)


def __getattr__(name):
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'helpers.widgets' has no attribute {name!r}")
