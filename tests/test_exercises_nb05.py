"""The reading and prediction exercises of notebooks 05a / 05b (helpers/exercises/nb05a.py, nb05b.py):
solutions pass, typical wrong answers get a specific message, hostile answers never raise, and the
predicted number is printed nowhere in 05b before the exercise."""

import math

import pytest
import torch
from exercise_support import fresh_hints  # noqa: F401 - autouse fixture

from helpers.exercises import EXERCISES, check, nb05b

IDS = {"nb05_context_shape": "05a_computation_steps", "nb05_saturation": "05a_computation_steps", "nb05_padding_weight": "05b_computation_extras"}


@pytest.mark.parametrize("exercise_id", IDS)
def test_exercise_is_registered_for_its_notebook(exercise_id):
    ex = EXERCISES[exercise_id]
    assert ex.notebook == IDS[exercise_id] and ex.title and ex.prompt and len(ex.hints) >= 2


def test_notebook_05_keeps_its_exercises_with_their_ids():
    ids = {i: ex.notebook for i, ex in EXERCISES.items() if ex.notebook.startswith("05")}
    assert ids == {**{i: "05a_computation_steps" for i in ("masked_softmax", "context_vector", "luong_step",
                                                             "nb05_context_shape", "nb05_saturation")},
                   "bahdanau_step": "05b_computation_extras", "nb05_padding_weight": "05b_computation_extras",
                   "nb05b_local_m_row": "05b_computation_extras"}


# --------------------------------------------------------------------------- context shape
@pytest.mark.parametrize("answer", [(2, 5, 128), [2, 5, 128], torch.Size([2, 5, 128]), "[2, 5, 128]",
                                    "(2,5,128)"])
def test_context_shape_accepts_the_shape_in_any_spelling(answer):
    assert check("nb05_context_shape", answer).passed


@pytest.mark.parametrize("answer, clue", [
    ((2, 5, 7), "α"),
    ((2, 7, 128), "h̄"),
    ((2, 128), "one decoding step"),
    ((5, 2, 128), "wrong order"),
    ((2, 5, 256), "2H"),
    ((2, 5, 7, 128), "sum over s"),
])
def test_context_shape_names_the_typical_mistake(answer, clue):
    result = check("nb05_context_shape", answer)
    assert not result.passed and clue in result.message


def test_context_shape_second_failure_shows_more_hints():
    first = check("nb05_context_shape", (2, 5, 7))
    second = check("nb05_context_shape", (2, 5, 7))
    assert first.details["hints_shown"] == 1 and second.details["hints_shown"] == 2


# --------------------------------------------------------------------------- padding weight (predict)
def _hand_padding_weight():
    """By hand: zero keys give a general score of 0, so the padding share is n_pad / (n_pad + Σ_real exp(score))."""
    from helpers.decoders import top_layer
    from helpers.train import make_model

    model = make_model("luong-general", seed=nb05b.PADDING_SEED)
    model.eval()
    short, long = (s.split() for s in nb05b.PADDING_SENTENCES)
    ids = [model.src_vocab.encode(short) + [0] * (len(long) - len(short)), model.src_vocab.encode(long)]
    with torch.no_grad():
        state = model.start(torch.tensor(ids), torch.tensor([len(short), len(long)]))
        _, _, after = model.step(torch.tensor([1, 1]), state)
        h = top_layer(after.hidden)[0]  # [H]
        W_a = model.decoder.attention.score.W_a
        real = [math.exp(float(h @ W_a @ state.encoder_outputs[0, s])) for s in range(len(short))]
    n_pad = len(long) - len(short)
    return n_pad / (n_pad + sum(real)), n_pad


def test_padding_reference_equals_the_hand_computation():
    total, _, count = nb05b.padding_weights()
    expected, n_pad = _hand_padding_weight()
    assert count == n_pad and abs(total - expected) < 1e-5


def test_the_reasoned_prediction_n_pad_over_s_passes_with_the_right_reason():
    # 5 real words, padded to 9: with every score near 0 each position gets about 1/9, the padding 4/9
    assert check("nb05_padding_weight", (4 / 9, "A")).passed
    assert check("nb05_padding_weight", {"prediction": 0.44, "reason": "a"}).passed


def test_the_solution_is_the_measured_share_and_reason_a():
    total = nb05b.padding_weights()[0]
    assert EXERCISES["nb05_padding_weight"].solution == (round(total, 3), "A")


@pytest.mark.parametrize("reason, clue", [("B", "−∞"), ("C", "掩码"), ("D", "零向量"), ("E", "A、B、C、D")])
def test_a_right_prediction_with_a_wrong_reason_does_not_pass(reason, clue):
    result = check("nb05_padding_weight", (4 / 9, reason))
    assert not result.passed and "预测对了" in result.message and clue in result.message


@pytest.mark.parametrize("wrong, clue", [
    (lambda total, single: 0.0, "掩码"),
    (lambda total, single: 1.0 - total, "真实词"),
    (lambda total, single: single, "一个填充位置"),
    (lambda total, single: 1.7, "0 到 1"),
    (lambda total, single: 0.9 * total - 0.1, "几个位置"),
])
def test_a_wrong_prediction_names_the_typical_mistake(wrong, clue):
    total, single, _ = nb05b.padding_weights()
    answer = wrong(total, single)
    if abs(answer - total) <= nb05b.PREDICTION_TOL:
        pytest.fail("the wrong answer coincides with the reference; pick other sentences")
    result = check("nb05_padding_weight", (answer, "A"))
    assert not result.passed and clue in result.message


@pytest.mark.parametrize("answer", [None, (None, "A"), (0.44, None)])
def test_an_unfinished_prediction_uses_no_hint(answer):
    result = check("nb05_padding_weight", answer)
    assert not result.passed and result.details["kind"] == "unfinished" and "提示" not in result.message


@pytest.mark.parametrize("answer", [0.42, "0.42", (0.42,), (0.42, "A", "B"), {"x": 1}])
def test_a_bare_number_or_a_wrong_pair_asks_for_prediction_and_reason(answer):
    result = check("nb05_padding_weight", answer)
    assert not result.passed and "prediction, reason" in result.message


@pytest.mark.parametrize("value", [10**400, float("nan"), float("inf"), 0.5 + 0j, torch.tensor([0.4, 0.5]), object()])
def test_a_hostile_prediction_fails_without_raising(value):
    result = check("nb05_padding_weight", (value, "A"))
    assert not result.passed and "内部错误" not in result.message


def test_05b_prints_no_padding_share_before_the_exercise():
    """The predicted number appears in no output above the exercise's check cell (DESIGN §8)."""
    import nbformat

    from helpers.tools.notebooks import NOTEBOOK_DIR

    nb = nbformat.read(NOTEBOOK_DIR / "05b_computation_extras.ipynb", as_version=4)
    ask = next(k for k, c in enumerate(nb.cells) if c.cell_type == "code" and "nb05_padding_weight" in c.source)
    total = nb05b.padding_weights()[0]
    shown = [f"{total:.{n}f}" for n in (2, 3, 4)]
    before = "\n".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
                       for c in nb.cells[:ask] for o in c.get("outputs", []))
    assert not [x for x in shown if x in before]


# --------------------------------------------------------------------------- saturation
def test_saturation_is_right_by_reasoning_and_wrong_reasons_are_explained():
    assert check("nb05_saturation", "A").passed
    assert "方差为 1" in check("nb05_saturation", "B").message and not check("nb05_saturation", "B").passed
    assert not check("nb05_saturation", "C").passed


def test_the_saturation_reveal_measures_what_the_reasoning_says():
    from helpers.exercises.reveals import init_peak_alpha

    out = init_peak_alpha(n=128)
    assert out["random unscaled"] > 0.8 and out["random scaled"] < 0.5     # std √128 ≈ 11.3 against std 1
    assert 1 / 12 - 1e-6 <= out["untrained scaled"] < 1 and 1 / 12 - 1e-6 <= out["untrained unscaled"] < 1
    assert out["untrained unscaled"] < 0.2      # answer A: the freshly initialised model does not saturate


# --------------------------------------------------------------------------- nb05b_local_m_row
def test_local_m_row_prediction_and_reason_by_hand():
    # 昨天 is target word 2, so p_t = 2 and D = 2 gives the window 1..4; yesterday is source word 5.
    assert check("nb05b_local_m_row", (0, "A")).passed
    assert check("nb05b_local_m_row", (0.005, "a")).passed


def test_local_m_row_mistakes_are_named():
    even = check("nb05b_local_m_row", (0.2, "A"))
    assert not even.passed and "平分" in even.message
    gauss = check("nb05b_local_m_row", (0, "C"))
    assert not gauss.passed and "高斯只属于 local-p" in gauss.message
    peak = check("nb05b_local_m_row", (0.9, "B"))
    assert not peak.passed and "窗口" in peak.message
