"""Display equations that carry the book's number with ``\\tag{...}`` and contain a line break ``\\\\``.

Sphinx's MathJax writer wraps a display that contains ``\\\\`` in ``\\begin{split}...\\end{split}``, and
MathJax refuses ``\\tag`` there ("\\tag not allowed in split environment"): Eq. (9-40), a ``cases``
block, would show an error instead of the formula. Such a block is written as it is, between
``\\[ ... \\]`` (``nowrap``), so the ``\\tag`` applies to the whole display, as in the notebook.
"""

from docutils import nodes


def unwrap_tagged_displays(app, doctree) -> None:
    for node in doctree.findall(nodes.math_block):
        latex = node.astext()
        if "\\tag" in latex and "\\\\" in latex and not node.get("nowrap"):
            node["nowrap"] = True
            node.children = [nodes.Text(f"\\[{latex}\\]")]


def setup(app):
    app.connect("doctree-read", unwrap_tagged_displays)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
