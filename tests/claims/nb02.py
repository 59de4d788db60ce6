"""Claims of notebooks/02_origins.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "02_origins.ipynb"

CLAIMS = [
    # cell 7
    Claim('dd4ca2dc', 'abs(corner - 0.3) < 0.01', 'outside the spotlight a pixel keeps 30 % of its brightness (dim=0.3)'),
    # cell 9
    Claim('1319bc2f', 'weights[egret].sum() > 5 * egret.mean()', '下文的说法：权重远超面积比例'),
]
