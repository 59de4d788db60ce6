"""Claims of notebooks/solutions/05b_computation_extras_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/05b_computation_extras_solutions.ipynb"

CLAIMS = [
    # cell 4
    Claim('e15a4b37', 'result.passed', 'the reference answer passes the checker of bahdanau_step'),
    # cell 6
    Claim('24b08cac', 'result.passed', 'the reference answer passes the checker of nb05_padding_weight'),
    # cell 8
    Claim('4799d30e', 'result.passed and my_row_prediction == 0.0', 'the reference answer passes the checker of nb05b_local_m_row'),
]
