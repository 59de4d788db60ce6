"""Shared by the exercise tests: a clean hint count around every test, one typical wrong answer per exercise."""

import pytest
import torch

from helpers.exercises import reset_hints


@pytest.fixture(autouse=True)
def fresh_hints():
    """Every test starts (and leaves) with no failures counted, so hint 1 comes first."""
    reset_hints()
    yield
    reset_hints()


# One typical wrong answer per exercise: it fails with a diagnosis and uses up a hint.
WRONG = {
    "nb01_read_bleu": -0.5,
    "nb01_read_bleu_why": "B",
    "nb01_blind_s0": "A",
    "nb02_narrow_soft": "硬",
    "nb02_egret_share": 0.2,
    "nb02_hard_gradient": 0.5,
    "nb02_hard_gradient_why": "B",
    "nb03_uniform_student": "maybe",
    "nb03_uniform_student_why": "C",
    "nb03_peak_source": lambda translation, word: "i",
    "nb04_blend_range": "A",
    "nb04_nudge": "C",
    "nb04_predict_video": "湖边白鹭捕鱼",
    "nb04_tie_alpha": 0.3,
    "nb05_context_shape": (2, 5, 7),
    "nb05_saturation": "B",
    "nb05_padding_weight": (0.0, "B"),
    "nb05b_local_m_row": (0.2, "D"),
    "masked_softmax": lambda s, m: torch.softmax(s, -1),
    "context_vector": lambda w, v: torch.softmax(w, -1) @ v,
    "luong_step": lambda emb, ht, hp, enc, mask, cell, W_a, W_c: (hp, ht, mask.float() / mask.sum(-1, keepdim=True)),
    "bahdanau_step": lambda emb, sp, enc, mask, cell, W_q, W_k, v_a: (sp, enc.mean(1), mask.float() / mask.sum(-1, keepdim=True)),
    "nb06_crossing_share": -0.5,
    "nb06_crossing_share_why": "Z",
    "nb06_has_crossing": lambda links: False,
    "nb06_best_aer": "none",
    "nb06_best_aer_why": "Q",
    "nb07_look_or_say": "D",
    "nb07_aer_reading": -0.5,
    "nb07_aer_reading_why": "Z",
    "nb07a_aer_floor": lambda n_tgt, sure, possible: 0.0,
    "nb07a_threshold_rule": "C",
    "nb07b_weak_control": "B",
    "nb07c_word_order": "C",
}
