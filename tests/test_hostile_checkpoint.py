"""Hostile checkpoints and hostile save targets: every case is a bilingual CheckpointError, never a raw error.

Loading: odd path arguments, folders, FIFOs, symlink loops, tampered configs, odd tensors, odd metadata.
Saving: a read-only folder, a full disk, a folder or read-only file as the target, a file as the parent,
and temporary files left behind by a save that was killed.
Issue 32: NaN / inf weights (refused at load, never saved), /proc files, unreadable files, a file over the size limit.
"""

import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch
from hostile_support import assert_bilingual

from helpers.checkpoint import load_checkpoint, save_checkpoint
from helpers.runtime.errors import CheckpointError, HelpersError
from helpers.train import make_model


@pytest.fixture(scope="module")
def tiny():
    torch.set_num_threads(1)
    return make_model("luong-general", seed=0, emb_size=8, hidden_size=16)


@pytest.fixture()
def saved(tmp_path, tiny):
    return save_checkpoint(tiny, tmp_path / "model.pt")


def rewrite(path, change):
    """Load the raw payload, let ``change`` tamper with it, write it back (torch.save, no checks)."""
    payload = torch.load(path, weights_only=True)
    change(payload)
    torch.save(payload, path)
    return path


def set_config(**values):
    def change(payload):
        meta = json.loads(payload["meta"])
        meta["model_config"].update(values)
        payload["meta"] = json.dumps(meta)
    return change


# ------------------------------------------------------------------------------ path arguments
@pytest.mark.parametrize("arg", [None, 123, b"model.pt", 4.5, ["model.pt"]], ids=["None", "int", "bytes", "float", "list"])
def test_a_path_that_is_not_a_str_or_path_is_refused(arg):
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(arg)
    assert_bilingual(info, "a str or Path")


def test_a_5000_character_path_is_refused_as_too_long():
    with pytest.raises(CheckpointError) as info:
        load_checkpoint("x" * 5000)
    assert_bilingual(info, "path too long")


def test_a_path_with_a_nul_character_is_refused():
    with pytest.raises(CheckpointError) as info:
        load_checkpoint("model\x00.pt")
    assert_bilingual(info, "NUL")


# ------------------------------------------------------------------------------ file kinds
def test_a_directory_is_diagnosed_as_a_directory_not_as_missing(tmp_path):
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(tmp_path)
    message = assert_bilingual(info, "directory")
    assert "not found" not in message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs exist on POSIX only")
def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.pt"
    os.mkfifo(fifo)
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(fifo)  # opening a FIFO for reading would wait for a writer forever
    assert_bilingual(info, "FIFO")


def test_a_symlink_loop_is_diagnosed_as_a_loop(tmp_path):
    a, b = tmp_path / "a.pt", tmp_path / "b.pt"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(a)
    message = assert_bilingual(info, "symlink loop")
    assert "not found" not in message


def test_a_dangling_symlink_is_diagnosed_as_such(tmp_path):
    link = tmp_path / "link.pt"
    link.symlink_to(tmp_path / "gone.pt")
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(link)
    assert_bilingual(info, "dangling symlink")


# ------------------------------------------------------------------------------ payload and config
def test_format_version_true_is_refused(saved):
    rewrite(saved, lambda p: p.update(format_version=True))  # True == 1 in Python, but it is not a version
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(saved)
    assert_bilingual(info, "format_version True")


@pytest.mark.parametrize("key, value, named", [
    ("hidden_size", -1, "hidden_size"), ("dropout", 5, "dropout"), ("num_layers", 0, "num_layers"),
    ("hidden_size", 10**6, "hidden_size"), ("emb_size", "64", "emb_size"), ("dropout", float("nan"), "dropout"),
    ("bidirectional", "yes", "bidirectional"), ("rnn", "transformer", "rnn"), ("hidden_size", True, "hidden_size"),
])
def test_a_tampered_config_value_is_refused_before_torch_sees_it(saved, key, value, named):
    rewrite(saved, set_config(**{key: value}))
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(saved)
    assert_bilingual(info, "implausible model config", named)


def test_a_hidden_size_mismatch_names_the_tensor_and_both_shapes_in_full(saved):
    rewrite(saved, set_config(hidden_size=32))
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(saved)
    message = assert_bilingual(info, "do not fit", "hidden_size=32")
    # encoder GRU input weights: 3 gates x hidden rows; the file has 16, the config says 32
    assert "[48, 8]" in message and "[96, 8]" in message
    assert message.endswith("重新生成 (regenerate the shipped models)。")  # the hint at the end is not cut off


def test_a_sparse_tensor_is_refused(saved):
    def change(payload):
        key = next(iter(payload["state_dict"]))
        payload["state_dict"][key] = payload["state_dict"][key].to_sparse()
    rewrite(saved, change)
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(saved)
    assert_bilingual(info, "sparse")


def test_a_meta_tensor_is_refused(saved, monkeypatch):
    real_load = torch.load

    def load_with_a_meta_tensor(*args, **kwargs):  # torch.save cannot write a meta tensor; the loader may meet one
        payload = real_load(*args, **kwargs)
        key = next(iter(payload["state_dict"]))
        payload["state_dict"][key] = torch.empty(payload["state_dict"][key].shape, device="meta")
        return payload

    monkeypatch.setattr(torch, "load", load_with_a_meta_tensor)
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(saved)
    assert_bilingual(info, "meta tensor")


def test_a_non_string_tensor_name_is_refused(saved):
    rewrite(saved, lambda p: p["state_dict"].update({5: torch.zeros(1)}))
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(saved)
    assert_bilingual(info, "non-string tensor names")


def test_a_tensor_of_the_wrong_dtype_is_refused(saved):
    def change(payload):
        key = next(iter(payload["state_dict"]))
        payload["state_dict"][key] = payload["state_dict"][key].double()
    rewrite(saved, change)
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(saved)
    assert_bilingual(info, "torch.float64", "torch.float32")


def test_a_missing_tensor_is_named(saved):
    def change(payload):
        payload["state_dict"].pop(sorted(payload["state_dict"])[0])
    rewrite(saved, change)
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(saved)
    assert_bilingual(info, "missing")


def test_a_string_corpus_record_is_refused_when_saving(tmp_path, tiny):
    with pytest.raises(HelpersError) as info:
        save_checkpoint(tiny, tmp_path / "m.pt", meta={"corpus": "toy"})
    assert_bilingual(info, "malformed corpus record")
    assert not (tmp_path / "m.pt").exists()


def test_a_string_corpus_record_in_a_file_is_refused_when_loading(saved):
    def change(payload):
        meta = json.loads(payload["meta"])
        meta["corpus"] = "toy"
        payload["meta"] = json.dumps(meta)
    rewrite(saved, change)
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(saved)
    assert_bilingual(info, "malformed corpus record")


# ------------------------------------------------------------------------------ save failures
def test_a_read_only_folder_gives_a_message_without_the_hidden_temporary_name(tmp_path, tiny, monkeypatch):
    import tempfile

    def denied(*args, dir=None, prefix="", suffix="", **kwargs):  # what mkstemp raises in a read-only folder
        raise PermissionError(errno.EACCES, "Permission denied", os.path.join(dir, prefix + "abc123" + suffix))

    monkeypatch.setattr(tempfile, "mkstemp", denied)
    with pytest.raises(CheckpointError) as info:
        save_checkpoint(tiny, tmp_path / "model.pt")
    message = assert_bilingual(info, "permission denied", "model.pt")
    assert ".tmp" not in message and "abc123" not in message


def test_a_full_disk_says_disk_full_and_leaves_no_partial_file(tmp_path, tiny, monkeypatch):
    real_fdopen = os.fdopen

    class FullDisk:
        def __init__(self, f):
            self.f, self.written = f, 0

        def write(self, data):
            self.written += len(data)
            if self.written > 4096:
                raise OSError(errno.ENOSPC, "No space left on device")
            return self.f.write(data)

        def __getattr__(self, name):
            return getattr(self.f, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    monkeypatch.setattr(os, "fdopen", lambda fd, mode="r", *a, **k: FullDisk(real_fdopen(fd, mode, *a, **k)))
    with pytest.raises(CheckpointError) as info:
        save_checkpoint(tiny, tmp_path / "model.pt")
    message = assert_bilingual(info, "disk full")
    assert "unexpected pos" not in message
    assert list(tmp_path.iterdir()) == []


def test_a_directory_as_the_target_is_refused(tmp_path, tiny):
    (tmp_path / "model.pt").mkdir()
    with pytest.raises(CheckpointError) as info:
        save_checkpoint(tiny, tmp_path / "model.pt")
    assert_bilingual(info, "target is a directory")


def test_a_file_as_the_parent_is_refused(tmp_path, tiny):
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(CheckpointError) as info:
        save_checkpoint(tiny, tmp_path / "notes.txt" / "model.pt")
    assert_bilingual(info, "parent path is a file")


def test_a_read_only_target_is_not_silently_replaced(saved, tiny):
    before = saved.read_bytes()
    saved.chmod(0o444)
    try:
        with pytest.raises(CheckpointError) as info:
            save_checkpoint(tiny, saved)
        assert_bilingual(info, "read-only")
        assert saved.read_bytes() == before
    finally:
        saved.chmod(0o644)


@pytest.mark.parametrize("arg", [None, b"model.pt", "y" * 5000], ids=["None", "bytes", "5000 chars"])
def test_a_bad_save_path_is_refused(tiny, arg):
    with pytest.raises(CheckpointError) as info:
        save_checkpoint(tiny, arg)
    assert_bilingual(info, "cannot save checkpoint")


KILLED_SAVE = textwrap.dedent('''
    import os, signal, sys
    import torch
    from helpers.checkpoint import save_checkpoint
    from helpers.train import make_model

    def save_then_die(obj, f, *args, **kwargs):
        f.write(b"PK\\x03\\x04 half a file")
        f.flush()
        os.kill(os.getpid(), signal.SIGKILL)

    model = make_model("luong-general", seed=0, emb_size=8, hidden_size=16)
    torch.save = save_then_die
    save_checkpoint(model, sys.argv[1])
''')


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="SIGKILL exists on POSIX only")
def test_a_temporary_file_left_by_a_killed_save_is_removed_by_the_next_save(tmp_path, tiny):
    target = tmp_path / "model.pt"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]), OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-c", KILLED_SAVE, str(target)], env=env, capture_output=True, timeout=60)
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-2000:]
    left = [p.name for p in tmp_path.iterdir()]
    assert len(left) == 1 and left[0].startswith(".model.pt.") and left[0].endswith(".tmp")  # the stale file
    save_checkpoint(tiny, target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.pt"]
    load_checkpoint(target)


def test_the_temporary_file_name_carries_the_process_id(tmp_path, tiny, monkeypatch):
    seen = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda src, dst: (seen.append(Path(src).name), real_replace(src, dst)))
    save_checkpoint(tiny, tmp_path / "model.pt")
    assert seen and seen[0].startswith(f".model.pt.{os.getpid()}.")


def test_the_temporary_file_of_a_live_save_in_another_process_is_kept(tmp_path, tiny):
    live = tmp_path / f".model.pt.{os.getppid()}.abcd1234.tmp"  # our parent process is alive: a save in progress
    live.write_bytes(b"PK half")
    save_checkpoint(tiny, tmp_path / "model.pt")
    assert live.exists()


def test_an_hour_old_temporary_file_without_a_process_id_is_removed(tmp_path, tiny):
    old = tmp_path / ".model.pt.k3j4h5g6.tmp"  # the naming of earlier versions
    old.write_bytes(b"PK half")
    os.utime(old, (0, 0))
    save_checkpoint(tiny, tmp_path / "model.pt")
    assert not old.exists()


@pytest.mark.parametrize("variant, sizes", [
    ("none", {"rnn": "lstm", "num_layers": 2, "dropout": 0.1}),
    ("bahdanau", {"bidirectional": True, "rnn": "lstm", "num_layers": 2}),
    ("luong-concat", {"input_feeding": True}),
    ("luong-dot", {"bidirectional": True}),
], ids=["none lstm x2", "bahdanau bi-lstm x2", "luong-concat feeding", "luong-dot bi-gru"])
def test_the_bounds_accept_every_legitimate_architecture(tmp_path, variant, sizes):
    model = make_model(variant, seed=1, emb_size=8, hidden_size=12, **sizes)
    loaded = load_checkpoint(save_checkpoint(model, tmp_path / "m.pt"))
    assert loaded.config == model.config
    assert all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), loaded.state_dict().values()))


# ------------------------------------------------------------- NaN / inf weights (issue 32)
def poison(path, name: str | None, value: float):
    """Set one tensor (``name``) or every tensor (None) to ``value`` and fix the checksum, as a file
    saved from a diverged model would be."""
    from helpers.checkpoint import weights_digest

    def change(payload):
        state = payload["state_dict"]
        for key in [name] if name else list(state):
            state[key].view(-1)[0 if name else slice(None)] = value
        meta = json.loads(payload["meta"])
        meta["weights_sha256"] = weights_digest(state)
        payload["meta"] = json.dumps(meta)

    return rewrite(path, change)


@pytest.mark.parametrize("name, value", [(None, float("nan")), ("decoder.W_s.weight", float("inf")),
                                          ("encoder.embedding.weight", float("nan"))],
                         ids=["all NaN", "one inf", "one NaN"])
def test_a_checkpoint_with_nan_or_inf_weights_is_refused_at_load(saved, name, value):
    state = torch.load(saved, weights_only=True)["state_dict"]
    assert name is None or name in state
    poison(saved, name, value)
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(saved)
    message = assert_bilingual(info, "NaN", "model.pt", "python -m helpers.train")
    if name:
        assert name in message and "1 个" in message  # the tensor and how many values


def test_save_checkpoint_refuses_weights_that_are_not_finite(tmp_path, tiny):
    import copy

    broken = copy.deepcopy(tiny)
    with torch.no_grad():
        broken.decoder.W_s.weight[0, 0] = float("nan")
    with pytest.raises(CheckpointError) as info:
        save_checkpoint(broken, tmp_path / "nan.pt")
    assert_bilingual(info, "NaN", "decoder.W_s.weight")
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------- files that cannot be read as checkpoints (issue 32)
@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="/proc exists on Linux only")
@pytest.mark.parametrize("special", ["/proc/self/mem", "/proc/self/environ", "/proc/self/status"])
def test_a_proc_file_is_a_checkpoint_error_not_a_bare_os_error(special):
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(special)
    assert_bilingual(info, Path(special).name)


def refuse_reads(monkeypatch, target: Path, error: OSError):
    """Make every way of opening ``target`` fail with ``error`` (root reads any file regardless of its mode)."""
    import builtins
    import io

    real_os_open, real_open = os.open, builtins.open

    def os_open(path, *args, **kwargs):
        if Path(os.fspath(path)) == target:
            raise error
        return real_os_open(path, *args, **kwargs)

    def py_open(path, *args, **kwargs):
        if isinstance(path, (str, os.PathLike)) and Path(os.fspath(path)) == target:
            raise error
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(builtins, "open", py_open)
    monkeypatch.setattr(io, "open", py_open)


@pytest.mark.parametrize("error, named", [
    (PermissionError(errno.EACCES, "Permission denied"), "permission denied"),
    (OSError(errno.EIO, "Input/output error"), "cannot read"),
], ids=["permission denied", "I/O error"])
def test_a_file_that_cannot_be_read_is_a_bilingual_checkpoint_error(saved, monkeypatch, error, named):
    refuse_reads(monkeypatch, saved, error)
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(saved)
    assert_bilingual(info, named, "model.pt")


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    from helpers.runtime.safeio import MAX_FILE_BYTES

    big = tmp_path / "big.pt"
    with open(big, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # a sparse file: no disk space used
    refuse_reads(monkeypatch, big, AssertionError("the file was opened"))
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(big)
    assert_bilingual(info, "file too large", "big.pt")
