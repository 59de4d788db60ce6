"""Claims of notebooks/02_origins.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "02_origins.ipynb"

CLAIMS = [
    # cell 7
    Claim('dd4ca2dc', 'abs(corner - 0.3) < 0.01', 'outside the spotlight a pixel keeps 30 % of its brightness (dim=0.3)'),
    # cell 9
    Claim('1319bc2f', 'weights[egret].sum() > 5 * egret.mean()', '下文的说法：权重远超面积比例'),
    # cell 20 (exercise 1's reveal)
    Claim('d9af3721', 'abs(egret_share_slope(SOFT, radius=NARROW)) > 0.01', 'the narrow soft spotlight has a non-zero slope'),
    # cell 28 (exercise 3's reveal; read in the markdown cell after it)
    Claim('f9b1781a', 'egret_share_slope(HARD) == 0 and egret_share_slope(SOFT) < 0', 'hard spotlight: slope 0; soft spotlight: a small negative slope'),
]
