"""Claims of notebooks/solutions/04_framework_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/04_framework_solutions.ipynb"

CLAIMS = [
    # cell 3
    Claim('86c0edd7', 'np.allclose(soft_retrieve(q, K, V, 0.5), retrieve("钢琴 入门", temperature=0.5).result)', ''),
    Claim('86c0edd7', 'result.passed', ''),
    # cell 5
    Claim('33cda40b', 'np.allclose(hard_retrieve(q, K, V), retrieve("钢琴 入门", hard=True).result)', ''),
    Claim('33cda40b', 'result.passed', ''),
    # cell 7
    Claim('0299bb23', 'result.passed', ''),
    # cell 9
    Claim('44e90089', 'result.passed', ''),
]
