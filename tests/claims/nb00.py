"""Claims of notebooks/00_setup_check.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "00_setup_check.ipynb"

CLAIMS = [
    # cell 2: the report's lines are all √ (the conclusion cell says 环境就绪 from the same report)
    Claim('ba768b44', 'all(ok for _, ok, _ in report)', 'every line of the environment report is √'),
    Claim('ba768b44', '__import__("torch").get_num_threads() == 1', 'the notebook runs torch on one thread (use_notebook_threads)'),
    # cell 4: the illustrative weights of the 是 row sum to 1 and peak on am
    Claim('e5b8451b', 'abs(weights.sum() - 1) < 1e-12 and src_words[int(weights.argmax())] == "am"',
          'the illustrative weights sum to 1 and peak on am'),
    # cell 6: at τ = 1 the widget's bars are softmax(s), the largest on the largest score
    Claim('0bcca29b', 'np.allclose(demo.alpha, np.exp(demo.scores) / np.exp(demo.scores).sum()) and int(demo.alpha.argmax()) == 1',
          'at τ = 1 the bars are softmax(s), highest for candidate 2 (s = 3)'),
    # cell 8
    Claim('e63f53d6', 'problems == []', 'the conclusion is 环境就绪 (no problems)'),
]
