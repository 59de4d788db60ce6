"""Claims of notebooks/solutions/07_heatmaps_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/07_heatmaps_solutions.ipynb"

CLAIMS = [
    # cell 3
    Claim('0fd74844', 'result.passed', 'the reference answer passes the checker of nb07_look_or_say'),
    # cell 5
    Claim('31cc96ef', 'check("nb07_aer_reading", my_aer).passed', 'the reference answer passes the checker of nb07_aer_reading'),
    Claim('31cc96ef', 'result.passed', 'the reference answer passes the checker of nb07_aer_reading_why'),
    # cell 7
    Claim('2b4e591b', 'result.passed', 'the reference answer passes the checker of nb07_argmax_links'),
]
