"""Checkpoints: round trip, atomic writes, and refusal of corrupt, foreign, stale or malicious files."""

import json
import os
import pickle

import pytest
import torch

from helpers.checkpoint import load_checkpoint, read_metadata, save_checkpoint
from helpers.corpus import CORPUS_VERSION, Vocab, build_vocabs
from helpers.runtime.errors import CheckpointError
from helpers.train import make_model


@pytest.fixture(scope="module")
def tiny():
    return make_model("luong-general", seed=0, emb_size=8, hidden_size=16)


@pytest.fixture()
def saved(tmp_path, tiny):
    path = tmp_path / "model.pt"
    save_checkpoint(tiny, path, meta={"train": {"steps": 7, "seed": 0}, "metrics": {"valid_char_bleu": 0.5},
                                      "command": "python -m helpers.train --model luong-general --out model.pt"})
    return path


def _evil_command(marker):
    return (exec, (f"open({str(marker)!r}, 'w').write('pwned')",))


class Evil:
    marker = None

    def __reduce__(self):
        return _evil_command(Evil.marker)


def test_round_trip_keeps_weights(saved, tiny):
    loaded = load_checkpoint(saved)
    for (name, a), (_, b) in zip(tiny.state_dict().items(), loaded.state_dict().items()):
        assert torch.equal(a, b), name


def test_round_trip_keeps_config_vocabularies_and_metadata(saved, tiny):
    loaded = load_checkpoint(saved)
    assert loaded.config == tiny.config
    assert loaded.src_vocab == tiny.src_vocab and loaded.tgt_vocab == tiny.tgt_vocab
    assert loaded.name == "luong-general"
    assert loaded.meta["train"]["steps"] == 7
    assert loaded.meta["metrics"]["valid_char_bleu"] == 0.5
    assert loaded.meta["command"].startswith("python -m helpers.train")
    assert loaded.meta["corpus"] == {"name": "toy", "version": CORPUS_VERSION, "seed": 0}


def test_rnnencdec_round_trip_keeps_weights_and_translations(tmp_path):
    from helpers import translate

    model = make_model("rnnencdec", seed=3, emb_size=8, hidden_size=16, bidirectional=True)
    path = save_checkpoint(model, tmp_path / "rnnencdec.pt", meta={"name": "rnnencdec"})
    loaded = load_checkpoint(path)
    assert loaded.config["variant"] == "rnnencdec" and loaded.name == "rnnencdec"
    assert sorted(loaded.state_dict()) == sorted(model.state_dict())
    assert all(torch.equal(loaded.state_dict()[k], v) for k, v in model.state_dict().items())
    before, after = translate(model.eval(), "i am a student ."), translate(loaded, "i am a student .")
    assert after.tgt_tokens == before.tgt_tokens and after.attention is None


def test_loaded_model_is_in_eval_mode(saved):
    assert load_checkpoint(saved).training is False


def test_metadata_can_be_read_without_building_the_model(saved):
    assert read_metadata(saved)["model_config"]["variant"] == "luong-general"


def test_missing_file_is_refused_with_a_hint(tmp_path):
    with pytest.raises(CheckpointError, match="找不到.*not found"):
        load_checkpoint(tmp_path / "nope.pt")


def test_truncated_file_is_refused(saved):
    data = saved.read_bytes()
    saved.write_bytes(data[: len(data) // 2])
    with pytest.raises(CheckpointError, match="损坏|corrupt"):
        load_checkpoint(saved)


def test_random_bytes_are_refused(tmp_path):
    path = tmp_path / "random.pt"
    path.write_bytes(os.urandom(4096))
    with pytest.raises(CheckpointError, match="make pretrained"):
        load_checkpoint(path)


def test_a_plain_state_dict_is_refused_as_foreign(tmp_path, tiny):
    path = tmp_path / "foreign.pt"
    torch.save(tiny.state_dict(), path)
    with pytest.raises(CheckpointError, match="foreign"):
        load_checkpoint(path)


def test_flipped_weight_is_refused_by_the_checksum(saved):
    payload = torch.load(saved, weights_only=True)
    first = next(iter(payload["state_dict"]))
    payload["state_dict"][first] = payload["state_dict"][first] + 1.0
    torch.save(payload, saved)
    with pytest.raises(CheckpointError, match="checksum"):
        load_checkpoint(saved)


@pytest.mark.parametrize("writer", ["pickle", "torch.save"])
def test_malicious_pickle_is_refused_and_never_runs(tmp_path, writer):
    marker = tmp_path / "marker.txt"
    Evil.marker = marker
    path = tmp_path / "evil.pt"
    if writer == "pickle":
        path.write_bytes(pickle.dumps({"format": "helpers-seq2seq", "state_dict": Evil()}, protocol=2))
    else:
        torch.save({"format": "helpers-seq2seq", "meta": "{}", "state_dict": {"x": Evil()}}, path)
    with pytest.raises(CheckpointError, match="refused|拒绝"):
        load_checkpoint(path)
    assert not marker.exists()


def test_other_vocabulary_is_refused(saved):
    src, tgt = build_vocabs()
    other = Vocab(list(tgt.itos[4:]) + ["新词"], lang="zh")
    with pytest.raises(CheckpointError, match="vocabulary mismatch"):
        load_checkpoint(saved, expect_vocabs=(src, other))


def test_model_of_an_older_corpus_version_is_refused(tmp_path, tiny):
    path = tmp_path / "old.pt"
    save_checkpoint(tiny, path, meta={"corpus": {"name": "toy", "version": "0.0-old", "seed": 0}})
    with pytest.raises(CheckpointError, match="stale.*make pretrained|make pretrained"):
        load_checkpoint(path)


def test_config_that_does_not_fit_the_weights_is_refused(tmp_path, tiny):
    path = tmp_path / "bad.pt"
    save_checkpoint(tiny, path)
    payload = torch.load(path, weights_only=True)
    meta = json.loads(payload["meta"])
    meta["model_config"]["hidden_size"] = 32
    payload["meta"] = json.dumps(meta)
    torch.save(payload, path)
    with pytest.raises(CheckpointError, match="do not fit"):
        load_checkpoint(path)


def test_interrupted_save_keeps_the_previous_file(saved, tiny, monkeypatch):
    before = saved.read_bytes()

    def broken_save(obj, f, *args, **kwargs):
        f.write(b"PK\x03\x04 half a file")
        raise KeyboardInterrupt  # Ctrl-C in the middle of writing

    monkeypatch.setattr(torch, "save", broken_save)
    with pytest.raises(KeyboardInterrupt):
        save_checkpoint(tiny, saved)
    monkeypatch.undo()
    assert saved.read_bytes() == before
    assert sorted(p.name for p in saved.parent.iterdir()) == ["model.pt"]  # no temporary file left behind
    load_checkpoint(saved)


def test_checkpoint_error_is_a_value_error_with_chinese_and_english(tmp_path):
    path = tmp_path / "x.pt"
    path.write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError) as info:
        load_checkpoint(path)
    message = str(info.value)
    assert "无法加载检查点" in message and "cannot load checkpoint" in message
