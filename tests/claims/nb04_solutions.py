"""Claims of notebooks/solutions/04_framework_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/04_framework_solutions.ipynb"

CLAIMS = [
    # cell 3
    Claim('86c0edd7', 'np.all((V.min(axis=0) <= blend) & (blend <= V.max(axis=0))) and not any(np.allclose(blend, v) for v in V)', 'the blend lies between the videos and is no video'),
    Claim('86c0edd7', 'result.passed', 'the reference answer passes the checker of nb04_blend_range'),
    # cell 5
    Claim('33cda40b', 'not np.any(hard_change) and np.abs(soft_change).max() > 0', 'a nudge moves the soft result, not the hard one'),
    Claim('33cda40b', 'result.passed', 'the reference answer passes the checker of nb04_nudge'),
    # cell 7
    Claim('0299bb23', 'result.passed', 'the reference answer passes the checker of nb04_predict_video'),
    # cell 9
    Claim('44e90089', 'result.passed', 'the reference answer passes the checker of nb04_tie_alpha'),
]
