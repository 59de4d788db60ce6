"""Claims of notebooks/solutions/02_origins_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/02_origins_solutions.ipynb"

CLAIMS = [
    # cell 3
    Claim('1d690a15', 'result.passed', 'the reference answer passes the checker of nb02_narrow_soft'),
    Claim('1d690a15', 'abs(narrow_soft) > 0.01', 'a narrow soft spotlight still has a gradient'),
    # cell 5
    Claim('9a6600af', 'egret_share > wide', '焦点越小，份额越大'),
    Claim('9a6600af', 'result.passed', 'the reference answer passes the checker of nb02_egret_share'),
    # cell 7
    Claim('d1e7b369', 'check("nb02_hard_gradient", my_slope).passed', 'the reference answer passes the checker of nb02_hard_gradient'),
    Claim('d1e7b369', 'result.passed', 'the reference answer passes the checker of nb02_hard_gradient_why'),
    Claim('d1e7b369', 'egret_share_slope(SOFT) < 0', 'the soft slope is negative (moving left would raise the share)'),
    Claim('d1e7b369', 'egret_share_slope(HARD, radius=NARROW) == 0', 'a narrow hard spotlight has no gradient either'),
]
