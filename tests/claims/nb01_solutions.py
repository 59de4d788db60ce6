"""Claims of notebooks/solutions/01_information_bottleneck_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/01_information_bottleneck_solutions.ipynb"

CLAIMS = [
    # cell 3
    Claim('bae8960c', 'my_reading - whole > 0.2', '接近 none 在 3-20 词的分数，远高于整句'),
    Claim('bae8960c', 'check("nb01_read_bleu", my_reading).passed', 'the reference answer passes the checker of nb01_read_bleu'),
    Claim('bae8960c', 'result.passed', 'the reference answer passes the checker of nb01_read_bleu_why'),
    # cell 5
    Claim('50f50e22', 'blind < normal - 0.3 and blind < 0.005', 's_0 清零以后大幅下降，几乎为 0（打印为 0.00）'),
    Claim('50f50e22', 'result.passed', 'the reference answer passes the checker of nb01_blind_s0'),
]
