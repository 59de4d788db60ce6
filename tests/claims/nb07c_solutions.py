"""Claims of notebooks/solutions/07c_to_transformer_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/07c_to_transformer_solutions.ipynb"

CLAIMS = [
    Claim('4a7c2e90', 'torch.allclose(out_perm, out[perm], atol=1e-6)', 'permuting the input permutes the output rows the same way'),
    Claim('4a7c2e90', 'result.passed', 'the reference answer passes the checker of nb07c_word_order'),
]
