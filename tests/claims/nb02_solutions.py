"""Claims of notebooks/solutions/02_origins_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/02_origins_solutions.ipynb"

CLAIMS = [
    # cell 3
    Claim('1d690a15', 'result.passed', ''),
    # cell 5
    Claim('9a6600af', 'egret_share > wide', '焦点越小，份额越大'),
    Claim('9a6600af', 'result.passed', ''),
    # cell 7
    Claim('d1e7b369', 'check("nb02_hard_gradient", my_slope).passed', '参考答案通过检查器 (nb02_hard_gradient)'),
    Claim('d1e7b369', 'result.passed', ''),
]
