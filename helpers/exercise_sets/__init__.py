"""Notebook-specific exercises, one module per notebook (``nb01.py`` … ``nb07.py``).

Each module calls ``helpers.exercises.register(Exercise(...))`` at import time. ``helpers.exercises``
imports this package at the end, so ``EXERCISES`` always holds every exercise. The seven code
exercises of notebook 05 live in ``helpers.checkers``.
"""

import importlib
import pkgutil

for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    importlib.import_module(f"{__name__}.{_module.name}")
