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
    """A checkpoint file that is corrupt, foreign, mismatched, out of bounds, or cannot be written."""


def shape_error(what: str, expected: str, got) -> ShapeError:
    """Build a ShapeError naming the expected and the received shape."""
    got_s = list(got) if not isinstance(got, str) else got
    return ShapeError(
        f"{what} 的形状不对 (wrong shape): 期望 (expected) {expected}，实际 (got) {got_s}。"
        f"请检查张量的维度顺序，例如 [B, T, D] 中 B=batch, T=目标长度, D=特征维度。"
    )


def check_int(name: str, value, low: int, high: int, example: str = "") -> int:
    """``value`` as an int in [low, high], or a HelpersError naming the range (bool, float, str refused)."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise HelpersError(f"{name} 应为 {low} 到 {high} 之间的整数 (an int in [{low}, {high}])，"
                           f"实际 (got) {value!r}（{type(value).__name__}）。{example}")
    if not low <= int(value) <= high:
        raise HelpersError(f"{name} 超出范围 (out of range)：应在 {low} 到 {high} 之间 (in [{low}, {high}])，"
                           f"实际 (got) {int(value)}。{example}")
    return int(value)


def check_float(name: str, value, low: float, high: float, example: str = "") -> float:
    """``value`` as a finite float in [low, high], or a HelpersError naming the range (bool, str refused)."""
    import math
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise HelpersError(f"{name} 应为 {low:g} 到 {high:g} 之间的数 (a number in [{low:g}, {high:g}])，"
                           f"实际 (got) {value!r}（{type(value).__name__}）。{example}")
    value = float(value)
    if not math.isfinite(value) or not low <= value <= high:
        raise HelpersError(f"{name} 超出范围 (out of range)：应在 {low:g} 到 {high:g} 之间的有限数 "
                           f"(a finite number in [{low:g}, {high:g}])，实际 (got) {value!r}。{example}")
    return value
