"""``python -m helpers.train``: never overwrite a good checkpoint with a worse one, never lose one silently.

* ``--out EXISTING`` is refused without ``--force`` (before any training);
* an interrupted run saves only when it has validated at least once, and prints where it saved;
* the exit code is non-zero when nothing usable was written;
* the output path is checked and reserved (a lock file) before training: a read-only folder, a file in
  the way, a folder as ``--out`` (even with ``--force``), a second run with the same ``--out``;
* every option is checked before training (model sizes against the bounds ``load_checkpoint`` enforces,
  lr, budgets, batch size, device), and a run whose loss becomes NaN / inf stops and saves nothing;
* issue 32: ``--out`` that is not a regular file (a FIFO, a socket, a device node like /dev/null, a
  symlink) is refused by its type even with ``--force``; ``--out newdir/`` names a folder and is refused
  with the file to give; a second Ctrl-C (or one while the options are checked) exits without a
  traceback and leaves no lock file.
"""

import errno
import math
import os
import subprocess
import sys

import pytest
import torch
from hostile_support import assert_bilingual, assert_bilingual_text

import helpers.runtime.safeio as safeio
import helpers.train as train_module
from helpers.checkpoint import load_checkpoint, read_metadata, save_checkpoint
from helpers.runtime.outputs import lock_path, reserve_output
from helpers.train import History, TrainingDiverged, main, make_model

SMALL = ["--model", "luong-dot", "--no-progress", "--hidden", "16", "--emb", "8"]


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


# ------------------------------------------------------------- the output path, before training
def validated():
    return History(steps=4, val_step=[4], val_bleu=[0.2], best_bleu=0.2, best_step=4)


def test_a_read_only_out_folder_is_refused_before_training(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    if os.geteuid() == 0:  # root writes into a 0555 folder anyway: make the OS refuse as it would a user
        real_open = os.open

        def refusing_open(path, *args, **kwargs):
            if os.path.dirname(os.fspath(path)) == str(folder):
                raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
            return real_open(path, *args, **kwargs)

        monkeypatch.setattr(os, "open", refusing_open)
    calls = []
    monkeypatch.setattr(train_module, "train", fake_train(validated(), calls))
    try:
        code = main([*SMALL, "--out", str(folder / "new.pt")])
    finally:
        folder.chmod(0o755)
    assert code != 0 and calls == []
    assert_bilingual_text(capsys.readouterr().err, "read-only", "cannot save checkpoint")
    assert list(folder.iterdir()) == []


def test_a_parent_that_is_a_file_is_refused_before_training(tmp_path, monkeypatch, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    calls = []
    monkeypatch.setattr(train_module, "train", fake_train(validated(), calls))
    code = main([*SMALL, "--out", str(tmp_path / "notes.txt" / "new.pt")])
    assert code != 0 and calls == []
    assert_bilingual_text(capsys.readouterr().err, "parent path is a file")
    assert (tmp_path / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["plain", "force"])
def test_a_folder_as_out_is_refused_before_training_even_with_force(tmp_path, monkeypatch, capsys, force):
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "keep.pt").write_text("mine")
    calls = []
    monkeypatch.setattr(train_module, "train", fake_train(validated(), calls))
    code = main([*SMALL, "--out", str(tmp_path / "models"), *force])
    assert code != 0 and calls == []
    assert_bilingual_text(capsys.readouterr().err, "directory")
    assert (tmp_path / "models" / "keep.pt").read_text() == "mine"


def test_a_second_run_with_the_same_out_is_refused_while_the_first_trains(tmp_path, monkeypatch, capsys):
    out, second = tmp_path / "shared.pt", []

    def first_run_trains(model, *args, **kwargs):  # while run 1 trains, run 2 starts with the same --out
        if not second:  # (a second run that is let through trains at once, starting no third one)
            second.append(None)
            second[:] = [main([*SMALL, "--out", str(out)]), capsys.readouterr().err]
        return validated()

    monkeypatch.setattr(train_module, "train", first_run_trains)
    assert main([*SMALL, "--out", str(out)]) == 0
    assert second[0] != 0
    assert_bilingual_text(second[1], "reserved by another run", str(os.getpid()), "--force")
    assert read_metadata(out)["metrics"]["valid_char_bleu"] == 0.2
    assert not lock_path(out).exists()  # the reservation ends with the run


def test_the_reservation_is_released_when_a_run_fails(tmp_path, monkeypatch):
    out = tmp_path / "sub" / "m.pt"
    monkeypatch.setattr(train_module, "train", fake_train(History(steps=3, stopped="interrupted"), []))
    assert main([*SMALL, "--out", str(out)]) != 0
    assert not out.parent.exists()  # nothing left behind: no lock, not even the folder made for it


def test_a_lock_left_by_a_killed_run_does_not_block_the_next_one(tmp_path, monkeypatch):
    out = tmp_path / "m.pt"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    lock_path(out).write_text(f"{int(dead.stdout)} 0123456789abcdef\n")
    monkeypatch.setattr(train_module, "train", fake_train(validated(), []))
    assert main([*SMALL, "--out", str(out)]) == 0
    assert out.is_file() and not lock_path(out).exists()


def test_a_file_written_at_out_during_training_is_kept_and_the_weights_go_beside_it(tmp_path, monkeypatch, capsys):
    out = tmp_path / "m.pt"

    def someone_writes_out(model, *args, **kwargs):
        out.write_text("written by another program")
        return validated()

    monkeypatch.setattr(train_module, "train", someone_writes_out)
    code = main([*SMALL, "--out", str(out)])
    assert code != 0
    assert out.read_text() == "written by another program"
    beside = tmp_path / f"m.{os.getpid()}.pt"
    assert read_metadata(beside)["metrics"]["valid_char_bleu"] == 0.2
    assert_bilingual_text(capsys.readouterr().err, str(beside), "not overwritten")


def test_force_goes_past_a_live_reservation_and_says_so(tmp_path, monkeypatch, capsys):
    out = tmp_path / "m.pt"
    holder = reserve_output(out)
    try:
        monkeypatch.setattr(train_module, "train", fake_train(validated(), []))
        assert main([*SMALL, "--out", str(out), "--force"]) == 0
        assert_bilingual_text(capsys.readouterr().err, "finishes last wins")
        assert lock_path(out).exists()  # the other run's lock is not ours to remove
    finally:
        holder.release(saved=True)
    assert not lock_path(out).exists()


# ---------------------------------------------------------------- options, before training
BAD_OPTIONS = {
    "emb 2049": (["--emb", "2049"], "emb_size"),
    "hidden 2049": (["--hidden", "2049"], "hidden_size"),
    "hidden 0": (["--hidden", "0"], "hidden_size"),
    "lr inf": (["--lr", "inf"], "lr"),
    "lr nan": (["--lr", "nan"], "lr"),
    "lr -1": (["--lr", "-1"], "lr"),
    "seconds nan": (["--seconds", "nan"], "seconds"),
    "seconds inf": (["--seconds", "inf"], "seconds"),
    "batch-size 0": (["--batch-size", "0"], "batch_size"),
    "batch-size -5": (["--batch-size", "-5"], "batch_size"),
    "epochs inf": (["--epochs", "inf"], "epochs"),
    "epochs nan": (["--epochs", "nan"], "epochs"),
    "device no-such-device": (["--device", "no-such-device"], "unknown device"),
    "device cuda:99": (["--device", "cuda:99"], "cuda"),
}


@pytest.mark.parametrize("option, named", BAD_OPTIONS.values(), ids=BAD_OPTIONS.keys())
def test_a_bad_option_is_refused_before_training_with_a_bilingual_message(tmp_path, monkeypatch, capsys, option,
                                                                           named):
    calls = []
    monkeypatch.setattr(train_module, "train", fake_train(validated(), calls))
    code = main(["--model", "luong-dot", "--no-progress", "--out", str(tmp_path / "m.pt"), *option])
    assert code == 2 and calls == []
    assert_bilingual_text(capsys.readouterr().err, named)
    assert list(tmp_path.iterdir()) == []  # no checkpoint, no lock file


def test_device_cuda_without_cuda_is_refused_before_training(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    calls = []
    monkeypatch.setattr(train_module, "train", fake_train(validated(), calls))
    code = main([*SMALL, "--out", str(tmp_path / "m.pt"), "--device", "cuda"])
    assert code == 2 and calls == []
    assert_bilingual_text(capsys.readouterr().err, "CUDA not available", "--device cpu")


def test_the_model_size_bound_is_the_one_load_checkpoint_enforces(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(safeio.CONFIG_BOUNDS, "hidden_size", (1, 12))  # one shared bound, not a copy
    calls = []
    monkeypatch.setattr(train_module, "train", fake_train(validated(), calls))
    code = main(["--model", "luong-dot", "--no-progress", "--emb", "8", "--hidden", "16",
                 "--out", str(tmp_path / "m.pt")])
    assert code == 2 and calls == []
    assert_bilingual_text(capsys.readouterr().err, "hidden_size", "12")


def test_a_model_whose_weights_exceed_the_loaders_limit_is_refused_before_training(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(safeio, "MAX_STATE_BYTES", 2**16)  # 64 KiB: the default 64/64 model is bigger
    calls = []
    monkeypatch.setattr(train_module, "train", fake_train(validated(), calls))
    code = main(["--model", "luong-dot", "--no-progress", "--out", str(tmp_path / "m.pt")])
    assert code == 2 and calls == []
    assert_bilingual_text(capsys.readouterr().err, "MiB", "--hidden")


# ------------------------------------------------------------------------- a diverging run
@pytest.fixture()
def nan_at_step_three(monkeypatch):
    calls, real_loss = [], train_module.masked_loss

    def loss(*args, **kwargs):
        calls.append(1)
        value = real_loss(*args, **kwargs)
        return value * math.nan if len(calls) >= 3 else value

    monkeypatch.setattr(train_module, "masked_loss", loss)
    return calls


def test_a_run_whose_loss_becomes_nan_stops_saves_nothing_and_exits_non_zero(tmp_path, nan_at_step_three, capsys):
    out = tmp_path / "m.pt"
    code = main([*SMALL, "--out", str(out), "--steps", "100000"])
    assert code != 0 and len(nan_at_step_three) == 3  # stopped at the first NaN
    assert list(tmp_path.iterdir()) == []
    assert_bilingual_text(capsys.readouterr().err, "training diverged", "nothing saved", "--lr")


def test_train_raises_on_a_nan_loss_and_leaves_finite_initial_weights(nan_at_step_three):
    torch.set_num_threads(1)
    from helpers.corpus import load_corpus

    model = make_model("luong-dot", seed=0, emb_size=8, hidden_size=16)
    before = {k: v.clone() for k, v in model.state_dict().items()}
    with pytest.raises(TrainingDiverged) as info:
        train_module.train(model, load_corpus("train")[:64], False, steps=50, batch_size=8, progress=False)
    assert_bilingual(info, "training diverged", "lr")
    assert info.value.history.stopped == "diverged" and info.value.history.steps == 2
    assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())


# ------------------------------------------- --out that is not a regular file (issue 32: /dev/null as root)
def special_node(tmp_path, kind: str):
    """A path in tmp_path holding a FIFO, a character device (made like /dev/null: 1, 3), a socket or a
    symlink, so that the test never touches a real device. None when this OS cannot make that kind."""
    import socket
    import stat

    path = tmp_path / f"{kind}-node"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "char device":
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    elif kind == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))
        sock.close()
    else:  # a symlink to a regular file: replacing it would cut the link, not write the file it names
        (tmp_path / "real.pt").write_text("mine")
        path.symlink_to(tmp_path / "real.pt")
    return path


# a device node can only be made by root (the reported case: root and --out /dev/null)
SPECIAL = ["fifo", "socket", "symlink"] + (["char device"] if os.name == "posix" and os.geteuid() == 0 else [])


@pytest.mark.skipif(not hasattr(os, "mkfifo") or os.name != "posix", reason="FIFOs and device nodes: POSIX")
@pytest.mark.parametrize("kind", SPECIAL)
def test_out_that_is_not_a_regular_file_is_refused_even_with_force(tmp_path, monkeypatch, capsys, kind):
    node = special_node(tmp_path, kind)
    before = os.lstat(node)
    calls = []
    monkeypatch.setattr(train_module, "train", fake_train(validated(), calls))
    code = main([*SMALL, "--out", str(node), "--force"])
    assert code == 2 and calls == []
    assert_bilingual_text(capsys.readouterr().err, "not a regular file", "cannot save checkpoint")
    after = os.lstat(node)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)  # the same node, not replaced
    assert not lock_path(node).exists() and sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("."))\
        == []  # no lock, no temporary file beside it


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs exist on POSIX only")
@pytest.mark.parametrize("kind", ["fifo", "symlink"])
def test_save_checkpoint_refuses_a_target_that_is_not_a_regular_file(tmp_path, kind):
    node = special_node(tmp_path, kind)
    before = os.lstat(node)
    with pytest.raises(ValueError) as info:
        save_checkpoint(make_model("luong-dot", emb_size=8, hidden_size=16), node)
    assert_bilingual(info, "not a regular file")
    assert os.lstat(node).st_ino == before.st_ino
    if kind == "symlink":
        assert (tmp_path / "real.pt").read_text() == "mine"


def test_the_check_is_by_file_type_not_by_the_name_dev_null(tmp_path):
    """A regular file that happens to be called 'null' in a folder called 'dev' is a normal target."""
    (tmp_path / "dev").mkdir()
    out = tmp_path / "dev" / "null"
    out.write_text("old")
    reservation = reserve_output(out, force=True)
    try:
        assert reservation.path == out and lock_path(out).exists()
    finally:
        reservation.release(saved=False)


# --------------------------------------------------------- --out with a trailing slash (issue 32: newdir/)
@pytest.mark.parametrize("exists", [False, True], ids=["new", "existing"])
def test_out_ending_with_a_slash_is_a_folder_and_is_refused_naming_a_file_in_it(tmp_path, monkeypatch, capsys, exists):
    folder = tmp_path / "newdir"
    if exists:
        folder.mkdir()
    calls = []
    monkeypatch.setattr(train_module, "train", fake_train(validated(), calls))
    code = main([*SMALL, "--out", str(folder) + os.sep, "--force"])
    assert code == 2 and calls == []
    err = assert_bilingual_text(capsys.readouterr().err, "a folder", "luong-dot.pt")
    assert str(folder / "luong-dot.pt") in err  # the message names the file to give instead
    assert folder.is_dir() == exists and (not exists or list(folder.iterdir()) == [])
    assert not (tmp_path / ".newdir.lock").exists()


# ------------------------------------------------------------------ Ctrl-C twice (issue 32)
CTRL_C_RUNNER = r"""
import os, signal, sys
import helpers.train as t
import helpers.runtime.outputs as outputs

where = sys.argv[1]
ctrl_c = lambda: os.kill(os.getpid(), signal.SIGINT)  # a real SIGINT, as a terminal sends it
real_loss, real_release, steps = t.masked_loss, outputs.Reservation.release, []

def loss(*args, **kwargs):
    steps.append(1)
    if len(steps) == 3:
        ctrl_c()  # the first Ctrl-C: during training step 3
    return real_loss(*args, **kwargs)

def release(self, saved):
    if where == "release":
        ctrl_c()  # the second one: while the run removes its lock
    return real_release(self, saved)

def vocabs(*args, **kwargs):
    ctrl_c()  # Ctrl-C while the options are checked, before the lock is taken
    return real_vocabs(*args, **kwargs)

import helpers.corpus
real_vocabs = helpers.corpus.build_vocabs
if where == "start":
    helpers.corpus.build_vocabs = vocabs
t.masked_loss, outputs.Reservation.release = loss, release
sys.exit(t.main(["--model", "luong-dot", "--hidden", "16", "--emb", "8", "--steps", "100000", "--no-progress",
                 "--out", sys.argv[2]]))
"""


@pytest.mark.skipif(os.name != "posix", reason="SIGINT sent with os.kill: POSIX")
@pytest.mark.parametrize("where", ["release", "start"])
def test_a_second_ctrl_c_exits_cleanly_and_removes_the_lock(tmp_path, where):
    out = tmp_path / "m.pt"
    done = subprocess.run([sys.executable, "-c", CTRL_C_RUNNER, where, str(out)], capture_output=True, text=True,
                          timeout=240, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode in (1, 130), (done.returncode, done.stderr[-3000:])
    assert_bilingual_text(done.stderr, "nothing saved")
    assert "KeyboardInterrupt" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no lock file, no checkpoint
