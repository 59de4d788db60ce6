"""helpers.extras.local_panels: the three matrices of Luong Fig. 7 for the stored demo sentence."""

import numpy as np
import pytest

import helpers
from helpers.corpus import load_corpus
from helpers.extras.local_panels import fig7_weights
from helpers.extras.localp_results import demo_pair, load_results


def test_fig7_weights_are_global_its_window_and_the_stored_local_p():
    lp, model = load_results(), helpers.load_pretrained("luong-general")
    pair = demo_pair(load_corpus("valid"))
    g, m, p = fig7_weights(model, lp, pair)
    assert g.shape == m.shape == p.shape and g.shape[1] == len(pair.src)
    assert np.allclose(g.sum(-1), 1, atol=1e-5) and np.allclose(m.sum(-1), 1, atol=1e-5)
    D = lp["window"]
    for t, row in enumerate(m, start=1):  # local-m: zero outside p_t = t ± D, and the global row renormalised inside
        inside = [s for s in range(len(pair.src)) if abs((s + 1) - t) <= D]
        outside = [s for s in range(len(pair.src)) if s not in inside]
        assert np.all(row[outside] == 0)
        assert np.allclose(row[inside], g[t - 1, inside] / g[t - 1, inside].sum(), atol=1e-5)
    assert np.array_equal(p, np.asarray(lp["demo"]["weights"]))


def test_fig7_weights_of_another_sentence_leave_local_p_blank_with_a_warning():
    lp, model = load_results(), helpers.load_pretrained("luong-general")
    other = load_corpus("valid")[0]
    with pytest.warns(UserWarning, match="another sentence"):
        g, m, p = fig7_weights(model, lp, other)
    assert g.shape == m.shape == p.shape and np.isnan(p).all() and np.allclose(m.sum(-1), 1, atol=1e-5)
