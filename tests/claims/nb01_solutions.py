"""Claims of notebooks/solutions/01_information_bottleneck_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/01_information_bottleneck_solutions.ipynb"

CLAIMS = [
    # cell 3
    Claim('bae8960c', '0.7 < my_reading < 0.85 and my_reading - whole > 0.3', '接近 none 在 3-20 词的分数，远高于整句'),
    Claim('bae8960c', 'check("nb01_read_bleu", my_reading).passed', 'the reference answer passes the checker of nb01_read_bleu'),
    Claim('bae8960c', 'result.passed', 'the reference answer passes the checker of nb01_read_bleu_why'),
    # cell 5
    Claim('50f50e22', 'result.passed', 'the reference answer passes the checker of nb01_bleu_by_length'),
]
