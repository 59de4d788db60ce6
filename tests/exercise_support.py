"""Shared by the exercise tests: a clean hint count around every test."""

import pytest

from helpers.exercises import reset_hints


@pytest.fixture(autouse=True)
def fresh_hints():
    """Every test starts (and leaves) with no failures counted, so hint 1 comes first."""
    reset_hints()
    yield
    reset_hints()
