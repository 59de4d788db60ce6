"""helpers.tools.frames: the kernel-free frames of the website are the widgets' own pictures, one per
decoding step, with t counted from 1 and the tokens that `translate` gives."""

import matplotlib

matplotlib.use("Agg")
import pytest  # noqa: E402

import helpers  # noqa: E402
from helpers.tools.frames import explorer_runs, palette_png, step_runs  # noqa: E402
from helpers.widgets import AttentionExplorer, StepThrough  # noqa: E402

SENTENCE = "i am a student ."


@pytest.fixture(scope="module")
def step_index(tmp_path_factory):
    folder = tmp_path_factory.mktemp("step")
    return folder, step_runs(folder, [SENTENCE])


@pytest.fixture(scope="module")
def explorer_index(tmp_path_factory):
    folder = tmp_path_factory.mktemp("explorer")
    return folder, explorer_runs(folder, [SENTENCE])


@pytest.mark.parametrize("which", ["step_index", "explorer_index"])
def test_each_run_has_every_step_of_greedy_decoding_counted_from_one(request, which):
    _, index = request.getfixturevalue(which)
    for run in index["runs"]:
        expected = helpers.translate(helpers.load_pretrained(run["model"]), SENTENCE).tgt_tokens + ["<eos>"]
        assert [s["token"] for s in run["steps"]] == expected
        assert [s["t"] for s in run["steps"]] == list(range(1, len(expected) + 1))


def test_step_frame_is_the_step_through_png(step_index):
    folder, index = step_index
    run = next(r for r in index["runs"] if r["model"] == "luong-general")
    widget = StepThrough(SENTENCE, score="luong-general")
    widget.step.value = 2
    assert (folder / run["steps"][1]["image"]).read_bytes() == palette_png(bytes(widget.image.value))


def test_explorer_frame_is_the_explorer_png(explorer_index):
    folder, index = explorer_index
    run = next(r for r in index["runs"] if r["model"] == "luong-general")
    widget = AttentionExplorer(model="luong-general", sentence=SENTENCE)
    widget.step.value = widget.step.min + 1  # the second decoding step, t = 2
    assert (folder / run["steps"][1]["image"]).read_bytes() == palette_png(bytes(widget.image.value))


def test_a_palette_frame_looks_like_the_widgets_picture_and_is_smaller(explorer_index):
    """Pixel by pixel against the widget's own PNG: the palette moves no colour visibly."""
    import io

    import numpy as np
    from PIL import Image

    widget = AttentionExplorer(model="luong-general", sentence=SENTENCE)
    original = bytes(widget.image.value)
    frame = palette_png(original)
    a = np.asarray(Image.open(io.BytesIO(original)).convert("RGB"), dtype=int)
    b = np.asarray(Image.open(io.BytesIO(frame)).convert("RGB"), dtype=int)
    assert a.shape == b.shape
    diff = np.abs(a - b).max(axis=2)
    assert np.percentile(diff, 99) <= 8 and diff.mean() < 1.0  # of 255 per channel
    assert len(frame) < 0.7 * len(original)
    assert palette_png(original) == frame  # deterministic


def test_the_explorer_player_opens_on_the_explorers_default_model(explorer_index):
    from helpers.widgets.explorer import default_model

    _, index = explorer_index
    assert index["models"][0]["name"] == default_model() == AttentionExplorer().model.value


def test_the_step_players_model_picker_lists_models_by_name(step_index):
    from helpers.checkpoint import list_pretrained

    _, index = step_index
    names = [m["name"] for m in index["models"]]
    assert names and set(names) <= set(list_pretrained())
    for model in index["models"]:
        assert model["label"].startswith(model["name"])  # a model, not a formula, heads each option
        assert model["name"].removeprefix("luong-") in model["label"] and "打分" in model["label"]
