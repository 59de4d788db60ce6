"""Claims of notebooks/solutions/07a_heatmaps_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/07a_heatmaps_solutions.ipynb"

CLAIMS = [
    Claim('2b4e591b', 'result.passed', 'the reference answer passes the checker of nb07a_aer_floor'),
    Claim('31cc96ef', 'check("nb07_aer_reading", my_aer).passed', 'the reference answer passes the checker of nb07_aer_reading'),
    Claim('31cc96ef', 'result.passed and aers["novel"] <= aers["test_same_lengths"]', 'the reference answer passes nb07_aer_reading_why: novel is not higher than the test pairs of the same lengths'),
    Claim('5c1e0a7a', 'result.passed', 'the reference answer passes the checker of nb07a_threshold_rule'),
    Claim('5b13842d', 'int(row.argmax()) in [i for i, j in yn.possible if yn.tgt[j] == "吗"]', "吗's peak is on one of its possible links (the auxiliary or the question mark)"),
]
