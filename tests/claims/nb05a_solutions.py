"""Claims of notebooks/solutions/05a_computation_steps_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/05a_computation_steps_solutions.ipynb"

CLAIMS = [
    # cell 4
    Claim('007919f5', 'result.passed', ''),
    # cell 6
    Claim('375919df', 'result.passed', ''),
    # cell 8
    Claim('923120c9', 'result.passed', ''),
    # cell 10
    Claim('ca639790', 'result.passed', ''),
    # cell 12
    Claim('336bd75c', 'result.passed', ''),
    # cell 14
    Claim('66644880', 'result.passed', ''),
    # cell 16
    Claim('e347e502', 'result.passed', ''),
    # cell 18
    Claim('fb11fbd7', 'result.passed', ''),
    # cell 20
    Claim('e0d152da', 'result.passed', ''),
    # cell 21
    Claim('0f268df2', 'shape == my_shape', ''),
]
