"""Training loop: masked loss, bucketing, budgets, determinism, early stopping, Ctrl-C, command line."""

import math
import random

import pytest
import torch

from helpers.checkpoint import load_checkpoint
from helpers.corpus import load_corpus
from helpers.runtime.errors import HelpersError
from helpers.train import main, make_batches, make_model, masked_loss, train

SIZES = {"emb_size": 8, "hidden_size": 16}


@pytest.fixture(scope="module")
def data():
    return load_corpus("train")[:96], load_corpus("valid")[:12]


def _train(data, variant="luong-general", seed=0, **kwargs):
    model = make_model(variant, seed=seed, **SIZES)
    kwargs.setdefault("steps", 4)
    hist = train(model, data[0], data[1], batch_size=16, seed=seed, progress=False, **kwargs)
    return model, hist


def test_masked_loss_ignores_padding_positions():
    logits = torch.tensor([[[2.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
                           [[0.0, 1.0, 0.0], [5.0, -5.0, 9.0]]])  # [B=2, T=2, V=3]
    targets = torch.tensor([[1, 2], [1, 0]])  # the last position of sentence 2 is padding (id 0)
    by_hand = [
        math.log(math.exp(2) + 2),  # -log softmax([2, 0, 0])[1]
        math.log(3.0),  # -log softmax([0, 0, 0])[2]
        -1.0 + math.log(2 + math.e),  # -log softmax([0, 1, 0])[1]
    ]
    assert masked_loss(logits, targets).item() == pytest.approx(sum(by_hand) / 3, abs=1e-6)


def test_batches_cover_every_example_once():
    lengths = [random.Random(n).randint(3, 20) for n in range(1000)]
    batches = make_batches(lengths, 32, random.Random(0))
    assert sorted(i for b in batches for i in b) == list(range(1000))


def test_batches_hold_sentences_of_similar_length():
    lengths = [random.Random(n).randint(3, 20) for n in range(3200)]
    batches = make_batches(lengths, 32, random.Random(0))
    spread = sum(max(lengths[i] for i in b) - min(lengths[i] for i in b) for b in batches) / len(batches)
    assert spread <= 2  # random batches of 32 from 3..20 would spread about 15


def test_the_same_seed_gives_the_same_batches_over_the_whole_length_range():
    lengths = [random.Random(n).randint(3, 40) for n in range(5000)]  # corpus 3.0 spans 3-40 tokens
    first = make_batches(lengths, 64, random.Random(7))
    assert first == make_batches(lengths, 64, random.Random(7))
    assert first != make_batches(lengths, 64, random.Random(8))


def test_step_budget_is_respected(data):
    _, hist = _train(data, steps=3)
    assert hist.steps == 3 and len(hist.step_loss) == 3


def test_epoch_budget_runs_whole_epochs_and_validates_each(data):
    _, hist = _train(data, steps=None, epochs=2)
    assert hist.steps == 2 * 6  # 96 pairs / batch 16
    assert len(hist.epoch_loss) == 2 and len(hist.val_bleu) == 2


def test_same_seed_gives_an_identical_history(data):
    _, a = _train(data, seed=3, steps=6, eval_every=3)
    _, b = _train(data, seed=3, steps=6, eval_every=3)
    assert a.step_loss == b.step_loss and a.val_bleu == b.val_bleu


def test_another_seed_gives_another_history(data):
    _, a = _train(data, seed=3, steps=3)
    _, b = _train(data, seed=4, steps=3)
    assert a.step_loss != b.step_loss


def test_loss_goes_down_on_a_small_set(data):
    _, hist = _train(data, steps=40, lr=1e-2)
    assert sum(hist.step_loss[-5:]) / 5 < 0.8 * sum(hist.step_loss[:5]) / 5


def test_history_is_plain_data_for_plots(data):
    _, hist = _train(data, steps=4, eval_every=2)
    d = hist.to_dict()
    assert d["val_step"] == [2, 4] and len(d["step_loss"]) == 4 and isinstance(d["wall_time"], float)


def test_early_stopping_when_validation_bleu_stops_improving(data):
    _, hist = _train(data, steps=100, eval_every=2, lr=0.0, patience=1)  # lr 0: BLEU can never improve
    assert hist.stopped == "early_stop" and hist.steps == 4


def test_callback_sees_the_history_while_training(data):
    seen = []
    _train(data, steps=6, callback=lambda h: seen.append(h.steps), callback_every=2)
    assert seen[:3] == [2, 4, 6]


def test_keyboard_interrupt_stops_cleanly_and_keeps_the_best_weights(data):
    state = {}
    model = make_model("luong-general", seed=0, **SIZES)

    def callback(hist):
        if hist.val_step and hist.val_step[-1] == hist.steps == 2:
            state["at_validation"] = {k: v.clone() for k, v in model.state_dict().items()}
        if hist.steps == 3:
            raise KeyboardInterrupt

    hist = train(model, data[0], data[1], batch_size=16, steps=50, eval_every=2, lr=0.05, progress=False,
                 callback=callback, callback_every=1, patience=None)
    assert hist.stopped == "interrupted" and hist.best_step == 2
    for name, value in model.state_dict().items():
        assert torch.equal(value, state["at_validation"][name]), name


def test_bad_budget_is_refused(data):
    with pytest.raises(HelpersError, match="epochs"):
        _train(data, steps=None, epochs=-1)


def test_command_line_writes_a_checkpoint_with_its_command(tmp_path, capsys):
    out = tmp_path / "cli.pt"
    rc = main(["--model", "luong-dot", "--out", str(out), "--steps", "2", "--hidden", "16", "--emb", "8",
               "--no-progress"])
    assert rc == 0
    model = load_checkpoint(out)
    assert model.meta["train"]["steps"] == 2
    assert model.meta["command"].startswith("python -m helpers.train --model luong-dot")


# --- thread count: a deliberate choice (helpers.train.TRAIN_THREADS, measured in helpers.tools.bench) ---
def test_training_runs_on_one_torch_thread_by_default(data):
    from helpers.train import TRAIN_THREADS

    seen = []
    train(make_model("luong-dot", seed=0), data[0], False, steps=3, progress=False,
          callback=lambda h: seen.append(torch.get_num_threads()), callback_every=1)
    assert TRAIN_THREADS == 1 and seen and set(seen) == {1}


def test_training_restores_the_callers_thread_count(data):
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        train(make_model("luong-dot", seed=0), data[0], False, steps=2, progress=False)
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


@pytest.mark.parametrize("threads", [0, -1, 1.5, True, "2"])
def test_a_bad_thread_count_is_refused_in_both_languages(data, threads):
    with pytest.raises(HelpersError, match="threads"):
        train(make_model("luong-dot", seed=0), data[0], False, steps=1, progress=False, threads=threads)


def test_the_help_notebook_06_prints_in_process_is_the_command_lines_help():
    # build_parser() is the command line's own parser: printing its help in process (a graded kernel may not
    # start programs) must say the same as `python -m helpers.train --help` (same terminal width).
    import os
    import subprocess
    import sys

    from helpers.train import build_parser

    env = {**os.environ, "COLUMNS": "100"}
    cli = subprocess.run([sys.executable, "-m", "helpers.train", "--help"], capture_output=True, text=True, env=env,
                         check=True).stdout
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        in_process = build_parser().format_help()
    finally:
        if old is None:
            os.environ.pop("COLUMNS")
        else:
            os.environ["COLUMNS"] = old
    assert in_process == cli and "--steps" in cli and "--out" in cli


def test_training_uses_torch_fused_adam_on_the_cpu():
    from helpers.train import make_optimizer

    opt = make_optimizer([torch.nn.Parameter(torch.zeros(3))], 0.01, "cpu")
    assert isinstance(opt, torch.optim.Adam) and opt.defaults["fused"] is True and opt.defaults["lr"] == 0.01
