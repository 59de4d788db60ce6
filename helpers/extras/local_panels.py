"""The weights of Luong et al. 2015's Fig. 7 for one sentence (notebook 05b, extra 4): global, local-m, local-p.

``fig7_weights(model, results, pair)`` returns three matrices [T, S], all with the reference fed to the
decoder (teacher forcing): the model's own global attention; local-m, the same scores renormalised inside
the window p_t = t ± D (Eq. E3, ``helpers.extras.localp_results.local_m_from_global``); and the trained local-p
model's weights stored in ``results`` (``helpers.extras.localp_results.load_results()``). Those are for the demo
sentence of the corpus they were computed on; for any other pair (a changed corpus, another sentence) the
local-p matrix is all NaN (drawn blank) and a warning says why, so the notebook still runs.
"""

from __future__ import annotations

import numpy as np

__all__ = ["fig7_weights"]


def fig7_weights(model, results: dict, pair) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(global [T, S], local-m [T, S], local-p [T, S]) for ``pair``; local-m uses ``results["window"]`` as D."""
    import warnings

    from helpers.extras.localp_results import local_m_from_global
    from helpers.tools.evaluate import teacher_forced_attention

    global_w = np.asarray(teacher_forced_attention(model, [pair])[0])  # [T, S]
    local_m = local_m_from_global(global_w, results["window"])  # the same scores, softmax inside the window (E3)
    if list(results["demo"]["src"]) == list(pair.src) and list(results["demo"]["tgt"]) == list(pair.tgt):
        local_p = np.asarray(results["demo"]["weights"])  # the trained local-p (E4)(E5)
    else:
        warnings.warn("保存的 local-p 结果不是这个句子的 (the stored local-p weights are for another sentence)："
                      "local-p 那张图留空。请用 demo_pair(load_corpus('valid')) 选出的句子，或设 TRAIN_LIVE = True 重新计算。",
                      stacklevel=2)
        local_p = np.full_like(global_w, np.nan)
    return global_w, local_m, local_p
