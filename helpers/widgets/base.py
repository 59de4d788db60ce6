"""The common base of every interactive widget: matplotlib -> PNG -> ``ipywidgets.Image``.

Each widget draws with matplotlib's Agg backend into PNG bytes, shows them in an
``ipywidgets.Image`` and also puts the same PNG into its display bundle as ``image/png``.
Live Jupyter shows the interactive widget; nbviewer, code-hosting sites and committed notebooks
(whose widget state is stripped) show the static picture of the state it was left in.
"""

from __future__ import annotations

import base64
import io

import ipywidgets as widgets


def figure_to_png(fig, dpi: int = 90) -> bytes:
    """Render a matplotlib Figure to PNG bytes (no pyplot state involved)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def canvas_to_png(fig) -> bytes:
    """PNG bytes of what ``fig``'s Agg canvas holds now, without drawing the figure again.

    For widgets that redraw only their changing artists on a cached background (blitting):
    ``savefig`` would lay out and draw every artist anew."""
    from PIL import Image

    width, height = fig.canvas.get_width_height(physical=True)
    image = Image.frombuffer("RGBA", (width, height), fig.canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    buffer = io.BytesIO()
    image.save(buffer, format="png")
    return buffer.getvalue()


def new_figure(width: float, height: float):
    """A Figure that is not registered with pyplot (so notebooks do not display it twice)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from helpers.viz import setup_chinese_font

    setup_chinese_font()
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


class PngBox(widgets.VBox):
    """A VBox whose display bundle also carries ``image/png`` of ``self.image`` (static fallback).

    Children are not stretched to the box width (``align_items="flex-start"``), so the PNG keeps its
    natural size in JupyterLab instead of being blown up.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.layout.align_items = "flex-start"

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        image = getattr(self, "image", None)
        if isinstance(image, widgets.Image) and image.value:
            bundle["image/png"] = base64.b64encode(bytes(image.value)).decode("ascii")
        return bundle
