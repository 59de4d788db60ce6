"""Claims of notebooks/solutions/04_framework_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/04_framework_solutions.ipynb"

CLAIMS = [
    # cell 3
    Claim('86c0edd7', 'np.allclose(soft_retrieve(q, K, V, 0.5), retrieve("钢琴 入门", temperature=0.5).result)', "the reference soft_retrieve equals helpers' retrieve at tau = 0.5"),
    Claim('86c0edd7', 'result.passed', 'the reference answer passes the checker of nb04_soft_retrieve'),
    # cell 5
    Claim('33cda40b', 'np.allclose(hard_retrieve(q, K, V), retrieve("钢琴 入门", hard=True).result)', "the reference hard_retrieve equals helpers' hard retrieve"),
    Claim('33cda40b', 'result.passed', 'the reference answer passes the checker of nb04_hard_retrieve'),
    # cell 7
    Claim('0299bb23', 'result.passed', 'the reference answer passes the checker of nb04_predict_video'),
    # cell 9
    Claim('44e90089', 'result.passed', 'the reference answer passes the checker of nb04_tie_alpha'),
]
