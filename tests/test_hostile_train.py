"""``python -m helpers.train``: never overwrite a good checkpoint with a worse one, never lose one silently.

* ``--out EXISTING`` is refused without ``--force`` (before any training);
* an interrupted run saves only when it has validated at least once, and prints where it saved;
* the exit code is non-zero when nothing usable was written.
"""

import pytest
import torch

import helpers.train as train_module
from helpers.checkpoint import load_checkpoint, read_metadata, save_checkpoint
from helpers.train import History, main, make_model


@pytest.fixture(scope="module")
def good_bytes(tmp_path_factory):
    torch.set_num_threads(1)
    path = tmp_path_factory.mktemp("good") / "mine.pt"
    save_checkpoint(make_model("luong-dot", seed=0, emb_size=8, hidden_size=16), path,
                    meta={"metrics": {"valid_char_bleu": 0.9}})
    return path.read_bytes()


@pytest.fixture()
def existing(tmp_path, good_bytes):
    path = tmp_path / "mine.pt"
    path.write_bytes(good_bytes)
    return path


def fake_train(history: History, calls: list):
    def run(model, *args, **kwargs):
        calls.append(kwargs)
        return history
    return run


def test_an_existing_out_file_is_refused_without_force_before_training(existing, good_bytes, monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(train_module, "train", fake_train(History(), calls))
    code = main(["--model", "luong-dot", "--out", str(existing), "--steps", "5", "--no-progress"])
    assert code != 0 and calls == []  # refused before any training
    assert existing.read_bytes() == good_bytes
    err = capsys.readouterr().err
    assert "already exists" in err and "--force" in err and "已存在" in err


def test_force_replaces_an_existing_file_with_a_validated_model(existing, monkeypatch, capsys):
    done = History(steps=5, val_step=[5], val_bleu=[0.25], best_bleu=0.25, best_step=5, stopped="budget")
    monkeypatch.setattr(train_module, "train", fake_train(done, []))
    code = main(["--model", "luong-dot", "--out", str(existing), "--steps", "5", "--no-progress", "--force",
                 "--hidden", "16", "--emb", "8"])
    assert code == 0
    assert read_metadata(existing)["metrics"]["valid_char_bleu"] == 0.25
    assert str(existing) in capsys.readouterr().out


def test_an_interrupt_before_the_first_validation_saves_nothing_and_exits_non_zero(existing, good_bytes, monkeypatch,
                                                                                   capsys):
    calls, real_loss = [], train_module.masked_loss

    def loss_then_ctrl_c(*args, **kwargs):  # Ctrl-C during the third training step (real training loop)
        calls.append(1)
        if len(calls) >= 3:
            raise KeyboardInterrupt
        return real_loss(*args, **kwargs)

    monkeypatch.setattr(train_module, "masked_loss", loss_then_ctrl_c)
    code = main(["--model", "luong-dot", "--out", str(existing), "--steps", "100000", "--no-progress", "--force",
                 "--hidden", "16", "--emb", "8"])
    assert code != 0
    assert existing.read_bytes() == good_bytes  # the good file is untouched
    err = capsys.readouterr().err
    assert "nothing saved" in err and "没有保存" in err


def test_an_interrupt_before_validation_writes_no_new_file(tmp_path, monkeypatch):
    never_validated = History(steps=305, stopped="interrupted")
    monkeypatch.setattr(train_module, "train", fake_train(never_validated, []))
    code = main(["--model", "luong-dot", "--out", str(tmp_path / "new.pt"), "--no-progress"])
    assert code != 0 and not (tmp_path / "new.pt").exists()


def test_an_interrupt_after_a_validation_saves_the_best_weights_and_says_where(tmp_path, monkeypatch, capsys):
    validated = History(steps=40, val_step=[20], val_bleu=[0.31], best_bleu=0.31, best_step=20, stopped="interrupted")
    monkeypatch.setattr(train_module, "train", fake_train(validated, []))
    out = tmp_path / "sub" / "new.pt"
    code = main(["--model", "luong-dot", "--out", str(out), "--no-progress", "--hidden", "16", "--emb", "8"])
    assert code == 0
    meta = load_checkpoint(out).meta
    assert meta["train"]["stopped"] == "interrupted" and meta["metrics"]["valid_char_bleu"] == 0.31
    printed = capsys.readouterr().out
    assert str(out) in printed and "interrupted" in printed and "step 20" in printed


def test_a_save_failure_exits_non_zero_with_a_message(tmp_path, monkeypatch, capsys):
    validated = History(steps=4, val_step=[4], val_bleu=[0.1], best_bleu=0.1, best_step=4)
    monkeypatch.setattr(train_module, "train", fake_train(validated, []))
    (tmp_path / "file").write_text("x")
    code = main(["--model", "luong-dot", "--out", str(tmp_path / "file" / "new.pt"), "--no-progress",
                 "--hidden", "16", "--emb", "8"])
    assert code != 0
    err = capsys.readouterr().err
    assert "cannot save checkpoint" in err and "无法保存" in err
