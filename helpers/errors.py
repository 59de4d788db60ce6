"""Error types shared by every helpers module.

Every error a reader can trigger is a ``ValueError`` subclass whose message is
bilingual: Chinese first, then the English term in parentheses, then what to do.
Nothing a student types should surface as a ``KeyError`` or a traceback from
deep inside torch.
"""

from __future__ import annotations


class HelpersError(ValueError):
    """Base class: bad input from a reader, with a Chinese + English message."""


class UnknownWordError(HelpersError):
    """A sentence contains words outside the vocabulary."""

    def __init__(self, message: str, words=(), suggestions=None):
        super().__init__(message)
        self.words = list(words)
        self.suggestions = dict(suggestions or {})


class EmptyInputError(HelpersError):
    """An empty or whitespace-only sentence."""


class ShapeError(HelpersError):
    """A tensor of the wrong shape."""


class CheckpointError(HelpersError):
    """A corrupt, foreign or mismatched checkpoint file."""


def shape_error(what: str, expected: str, got) -> ShapeError:
    """Build a ShapeError naming the expected and the received shape."""
    got_s = list(got) if not isinstance(got, str) else got
    return ShapeError(
        f"{what} 的形状不对 (wrong shape): 期望 (expected) {expected}，实际 (got) {got_s}。"
        f"请检查张量的维度顺序，例如 [B, T, D] 中 B=batch, T=目标长度, D=特征维度。"
    )
