"""Claims of notebooks/solutions/06_training_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/06_training_solutions.ipynb"

CLAIMS = [
    # cell 3
    Claim('927efa3e', 'check("nb06_crossing_share", my_share).passed', 'the reference answer passes the checker of nb06_crossing_share'),
    Claim('927efa3e', 'result.passed', 'the reference answer passes the checker of nb06_crossing_share_why'),
    # cell 5
    Claim('a8bd8321', 'result.passed', 'the reference answer passes the checker of nb06_has_crossing'),
    # cell 7
    Claim('206d6f41', 'check("nb06_best_aer", my_model).passed', 'the reference answer passes the checker of nb06_best_aer'),
    Claim('206d6f41', 'result.passed', 'the reference answer passes the checker of nb06_best_aer_why'),
]
