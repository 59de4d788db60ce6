"""Claims of notebooks/solutions/05a_computation_steps_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/05a_computation_steps_solutions.ipynb"

CLAIMS = [
    # cell 4
    Claim('007919f5', 'result.passed', 'the reference answer passes the checker of masked_softmax'),
    # cell 6
    Claim('336bd75c', 'result.passed', 'the reference answer passes the checker of context_vector'),
    # cell 8
    Claim('fb11fbd7', 'result.passed', 'the reference answer passes the checker of luong_step'),
    # cell 10
    Claim('e0d152da', 'result.passed', 'the reference answer passes the checker of nb05_context_shape'),
    # cell 11
    Claim('0f268df2', 'shape == my_shape', 'the predicted shape of c is the shape the code prints'),
    # exercise 5
    Claim('a6d347a0', 'result.passed and peak["untrained unscaled"] < 0.2 and peak["random unscaled"] > 0.8', 'the reference answer passes the checker of nb05_saturation'),
]
