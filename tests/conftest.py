"""Shared test set-up: a headless matplotlib backend, and quick mode for anything notebook-like."""

import os

os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.setdefault("NB_QUICK", "1")
