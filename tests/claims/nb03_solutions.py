"""Claims of notebooks/solutions/03_idea_solutions.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "solutions/03_idea_solutions.ipynb"

CLAIMS = [
    # cell 3
    Claim('023d0236', 'check("nb03_uniform_student", my_answer).passed', 'the reference answer passes the checker of nb03_uniform_student'),
    Claim('023d0236', 'result.passed', 'the reference answer passes the checker of nb03_uniform_student_why'),
    Claim('023d0236', 'outcome["均匀分布"] == "学生" and outcome["去掉峰值"] != "学生" and outcome["全零（c_t = 0）"] != "学生"', 'uniform weights keep 学生; without the peak or with c_t = 0 the word changes'),
    # cell 5
    Claim('ea067eb8', 'result.passed', 'the reference answer passes the checker of nb03_peak_source'),
    # cell 7
    Claim('ae13646e', 'le_peak == {"luong-dot": "an", "luong-concat": "an", "bahdanau": "an"}', 'all three models peak on an when they output 了 (and translate the sentence)'),
]
