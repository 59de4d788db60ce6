"""Nadaraya-Watson kernel regression: attention with numbers for Query, Keys and Values (notebook 04).

Predict y at a point x as a weighted average of the training targets y_i, with weights
α_i = softmax_i(-(x - x_i)² / τ): the nearer x_i is to x, the more its y_i counts. This is soft attention
with the query x, the keys x_i and the values y_i, and it shows why an average of values is useful: the
result is a new value (a smooth curve through the data), not one of the y_i, and it is differentiable in x.
"""

from __future__ import annotations

import numpy as np


def kernel_weights(x_query, x_train, tau: float = 0.1) -> np.ndarray:
    """α [Q, N]: softmax over the training points of -(x - x_i)² / τ, one row per query point."""
    if tau <= 0:
        raise ValueError(f"温度 τ 必须大于 0 (tau must be positive)，收到 {tau}")
    q = np.atleast_1d(np.asarray(x_query, dtype=float))[:, None]
    s = -((q - np.asarray(x_train, dtype=float)[None, :]) ** 2) / tau
    s -= s.max(axis=1, keepdims=True)                     # the same weights, no overflow
    w = np.exp(s)
    return w / w.sum(axis=1, keepdims=True)


def nadaraya_watson(x_query, x_train, y_train, tau: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    """(prediction [Q], α [Q, N]): the α-weighted average of ``y_train`` at each query point."""
    alpha = kernel_weights(x_query, x_train, tau)
    return alpha @ np.asarray(y_train, dtype=float), alpha


def toy_data(n: int = 12, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A small noisy sample of y = sin(2x) + x/2 on [0, 5]: the x_i (sorted) and y_i."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(0, 5, n))
    return x, np.sin(2 * x) + x / 2 + rng.normal(0, 0.3, n)
