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
    Claim('206d6f41', 'my_model == "bahdanau" == max(aers["test"], key=aers["test"].get) and 0.08 < aers["long"]["bahdanau"] - sorted(aers["long"].values())[-2] < 0.1', 'bahdanau is clearly highest on both splits, nearly 0.1 above the second on long'),
    Claim('206d6f41', 'all(aers["long"][n] > aers["test"][n] for n in aers["test"])', 'every model has a higher AER on long than on test'),
    Claim('206d6f41', 'min(aers["test"], key=aers["test"].get) == "luong-concat" and min(aers["long"], key=aers["long"].get) == "luong-dot" and round(aers["long"]["luong-concat"] - aers["long"]["luong-dot"], 3) == 0.005', 'the lowest changes from luong-concat (test) to luong-dot (long), 0.005 apart'),
]
