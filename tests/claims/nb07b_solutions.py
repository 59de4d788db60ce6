"""Claims of notebooks/solutions/07b_faithfulness_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/07b_faithfulness_solutions.ipynb"

CLAIMS = [
    Claim('0fd74844', 'result.passed', 'the reference answer passes the checker of nb07_look_or_say'),
    Claim('7e2b5d11', 'result.passed', 'the reference answer passes the checker of nb07b_weak_control'),
    Claim('7e2b5d11', 'peak.mean() > 0.9 and other.mean() < 0.02', 'the peak holds over 0.9 on average, every other key about a hundredth'),
    Claim('7e2b5d11', '(peak > 0.5).mean() > 0.9', 'the peak is over one half at almost every step'),
]
