"""Checkpoints: model weights + a metadata record, saved atomically, loaded without running pickled code.

A checkpoint file is what ``torch.save`` writes for a plain dict::

    {"format": "helpers-seq2seq", "format_version": 1,
     "meta": "<JSON text>",                  # config, vocabularies, corpus, training record, metrics
     "state_dict": {name: tensor, ...}}

* **Loading never executes pickled code**: ``torch.load(..., weights_only=True)`` only rebuilds
  tensors, dicts, lists, strings and numbers; anything else (a ``__reduce__`` that would run code)
  is refused. The metadata travels as JSON text, so no Python object is ever unpickled.
* **Everything is checked** before a model is built: the format tag, a SHA-256 of the weights, the
  config, the vocabulary sizes, the corpus version (for models of the toy corpus) and the tensor
  shapes. Whatever is wrong raises ``CheckpointError`` (a ``ValueError``) saying what and what to do.
* **Writes are atomic**: the file is written to a temporary file in the same folder, flushed to
  disk, then moved over the old one with ``os.replace``. An interrupted save leaves the previous file
  untouched, and a partial temporary file is never a valid checkpoint (it fails the checks above).

The metadata record (``model.meta``) holds: ``name``, ``model_config`` (``Seq2Seq.config``),
``src_vocab`` / ``tgt_vocab`` (``Vocab.to_dict()``), ``corpus`` (name, version, seed), ``train``
(seed, steps, epochs, wall time, device, history summary), ``metrics`` and ``command`` (the exact
command that produced the file), plus ``weights_sha256`` and the torch version.

A loaded model carries what ``helpers.translate`` needs: ``model.src_vocab``, ``model.tgt_vocab``,
``model.name`` and ``model.meta``.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from helpers.errors import CheckpointError, HelpersError

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "PRETRAINED_DIR",
    "PRETRAINED_NAMES",
    "attach_vocabs",
    "list_pretrained",
    "load_checkpoint",
    "load_pretrained",
    "pretrained_path",
    "read_metadata",
    "save_checkpoint",
]

FORMAT = "helpers-seq2seq"
FORMAT_VERSION = 1
PRETRAINED_DIR = Path(__file__).resolve().parent / "pretrained"
PRETRAINED_NAMES = ("none", "bahdanau", "luong-dot", "luong-general", "luong-concat")
TOY_CORPUS = "toy"

_RETRAIN = "请运行 make pretrained（或 python -m helpers.tools.pretrain）重新生成 (regenerate the shipped models)"


def attach_vocabs(model, src_vocab, tgt_vocab, name: str | None = None, meta: dict | None = None):
    """Give ``model`` the attributes ``translate`` needs: src_vocab, tgt_vocab, name, meta. Returns model."""
    model.src_vocab, model.tgt_vocab = src_vocab, tgt_vocab
    model.name = name if name is not None else getattr(model, "name", None) or model.config.get("variant")
    model.meta = dict(meta) if meta is not None else dict(getattr(model, "meta", None) or {})
    return model


def weights_digest(state_dict) -> str:
    """SHA-256 over the names, dtypes, shapes and bytes of all tensors (sorted by name)."""
    import torch

    h = hashlib.sha256()
    for key in sorted(state_dict):
        t = state_dict[key].detach().cpu().contiguous()
        h.update(f"{key}|{t.dtype}|{tuple(t.shape)}|".encode())
        if t.numel():
            h.update(t.reshape(-1).view(torch.uint8).numpy().tobytes())
    return h.hexdigest()


def _corpus_record() -> dict:
    from helpers import corpus

    return {"name": TOY_CORPUS, "version": corpus.CORPUS_VERSION, "seed": 0}


# ----------------------------------------------------------------------------------------- save
def save_checkpoint(model, path, *, src_vocab=None, tgt_vocab=None, meta: dict | None = None) -> Path:
    """Write weights + metadata of ``model`` to ``path`` atomically; returns the Path.

    Vocabularies default to ``model.src_vocab`` / ``model.tgt_vocab``. ``meta`` entries are merged over
    ``model.meta``; ``model_config``, vocabularies, ``weights_sha256`` and ``format`` are always filled
    in here. A missing ``corpus`` entry is taken to be the toy corpus at its current version, seed 0.
    """
    import torch

    src_vocab = src_vocab if src_vocab is not None else getattr(model, "src_vocab", None)
    tgt_vocab = tgt_vocab if tgt_vocab is not None else getattr(model, "tgt_vocab", None)
    if src_vocab is None or tgt_vocab is None:
        raise HelpersError("保存检查点需要词表 (vocabularies): 请传入 src_vocab=… 和 tgt_vocab=…，"
                           "或先用 helpers.train.make_model(...) 建立带词表的模型。")
    if not hasattr(model, "config") or not hasattr(model, "state_dict"):
        raise HelpersError(f"只能保存 Seq2Seq 模型 (a helpers Seq2Seq model)，实际 (got) {type(model).__name__}。")
    record = dict(getattr(model, "meta", None) or {})
    record.update(meta or {})
    state = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
    record.update({
        "name": record.get("name") or getattr(model, "name", None) or model.config["variant"],
        "model_config": dict(model.config),
        "src_vocab": src_vocab.to_dict(),
        "tgt_vocab": tgt_vocab.to_dict(),
        "weights_sha256": weights_digest(state),
        "torch_version": torch.__version__,
    })
    record.setdefault("corpus", _corpus_record())
    try:
        meta_text = json.dumps(record, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise HelpersError(f"元数据无法写成 JSON (metadata is not JSON-serialisable): {exc}。"
                           "请只放数字、字符串、列表和字典。") from exc
    payload = {"format": FORMAT, "format_version": FORMAT_VERSION, "meta": meta_text, "state_dict": state}

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        _umask = os.umask(0)
        os.umask(_umask)
        os.chmod(tmp, 0o666 & ~_umask)  # mkstemp makes 0600; give the file the usual permissions
        with os.fdopen(fd, "wb") as f:
            torch.save(payload, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)  # atomic on POSIX and Windows
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


# ----------------------------------------------------------------------------------------- load
def _refuse(path, what: str, todo: str = "") -> CheckpointError:
    todo = todo or f"请确认文件来自 helpers.save_checkpoint，或重新训练并保存；预训练模型{_RETRAIN}。"
    return CheckpointError(f"无法加载检查点 (cannot load checkpoint) {Path(path).name}: {what}。{todo}")


def _read_payload(path):
    import torch

    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"找不到检查点文件 (checkpoint not found): {path.name}。"
                              f"请检查路径；预训练模型{_RETRAIN}。")
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # corrupt zip, truncated file, random bytes, refused pickle, ...
        text = str(exc)
        if "weights_only" in text or "Unsupported global" in text or "Unpickler" in text:
            what = "文件里有不允许的 Python 对象，出于安全拒绝加载 (refused: the file would run pickled code)"
        else:
            what = f"文件已损坏或被截断，或不是 torch 文件 (corrupt, truncated or not a torch file: {type(exc).__name__})"
        raise _refuse(path, what) from None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise _refuse(path, "这不是本项目的检查点 (foreign file: no 'helpers-seq2seq' format tag)")
    if payload.get("format_version") != FORMAT_VERSION:
        raise _refuse(path, f"格式版本不支持 (unsupported format_version {payload.get('format_version')!r}，"
                            f"需要 {FORMAT_VERSION})")
    try:
        meta = json.loads(payload["meta"])
        state = payload["state_dict"]
        assert isinstance(meta, dict) and isinstance(state, dict)
        assert all(isinstance(v, torch.Tensor) for v in state.values())
    except Exception:
        raise _refuse(path, "元数据或权重缺失、格式不对 (missing or malformed metadata / weights)") from None
    if meta.get("weights_sha256") != weights_digest(state):
        raise _refuse(path, "权重校验和不符，文件已损坏 (weights checksum mismatch: corrupt file)")
    return meta, state


def read_metadata(path) -> dict:
    """The metadata record of a checkpoint (after all file checks), without building the model."""
    return _read_payload(path)[0]


def _check_corpus(path, meta: dict) -> None:
    corpus = meta.get("corpus") or {}
    if corpus.get("name") != TOY_CORPUS:
        return
    from helpers import corpus as corpus_module

    if corpus.get("version") != corpus_module.CORPUS_VERSION:
        raise _refuse(path, f"模型是用旧版语料训练的 (stale: trained on corpus version {corpus.get('version')!r}，"
                            f"当前 current {corpus_module.CORPUS_VERSION!r})",
                      f"权重与当前词表不再对应。{_RETRAIN}，或用 python -m helpers.train 重新训练。")


def _vocabs_equal(a, b) -> bool:
    return a.to_dict() == b.to_dict()


def load_checkpoint(path, *, device=None, expect_vocabs=None, check_corpus: bool = True):
    """Load a checkpoint written by ``save_checkpoint``; returns the model in eval mode.

    The model carries ``.src_vocab``, ``.tgt_vocab``, ``.name`` and ``.meta``. ``expect_vocabs`` =
    (src_vocab, tgt_vocab) refuses a file whose vocabularies differ. ``check_corpus`` refuses a
    toy-corpus model whose corpus version is not the current one. Any problem -> ``CheckpointError``.
    """
    from helpers.corpus import Vocab
    from helpers.seq2seq import Seq2Seq

    meta, state = _read_payload(path)
    try:
        src_vocab = Vocab.from_dict(meta["src_vocab"])
        tgt_vocab = Vocab.from_dict(meta["tgt_vocab"])
        config = dict(meta["model_config"])
    except Exception:
        raise _refuse(path, "元数据中的词表或模型配置无法读取 (unreadable vocabularies / model config)") from None
    if check_corpus:
        _check_corpus(path, meta)
    if config.get("src_vocab_size") != len(src_vocab) or config.get("tgt_vocab_size") != len(tgt_vocab):
        raise _refuse(path, f"词表大小与模型不符 (vocabulary size mismatch: src {len(src_vocab)} vs "
                            f"{config.get('src_vocab_size')}, tgt {len(tgt_vocab)} vs {config.get('tgt_vocab_size')})")
    if expect_vocabs is not None:
        want_src, want_tgt = expect_vocabs
        if not (_vocabs_equal(src_vocab, want_src) and _vocabs_equal(tgt_vocab, want_tgt)):
            raise _refuse(path, "词表与期望的不一致 (vocabulary mismatch: the file was trained with other vocabularies)",
                          f"请用同一份语料和词表重新训练；预训练模型{_RETRAIN}。")
    try:
        model = Seq2Seq.from_config(config)
        model.load_state_dict(state, strict=True)
    except (HelpersError, RuntimeError, TypeError, KeyError) as exc:
        raise _refuse(path, f"权重与模型结构不符 (weights do not fit the model config: {str(exc).splitlines()[0][:200]})") \
            from None
    model.eval()
    if device is not None:
        model.to(device)
    return attach_vocabs(model, src_vocab, tgt_vocab, name=meta.get("name"), meta=meta)


# ----------------------------------------------------------------------------------- pretrained
def pretrained_path(name: str) -> Path:
    """Path of a shipped model file, e.g. helpers/pretrained/luong-general.pt."""
    if not isinstance(name, str) or name not in PRETRAINED_NAMES:
        raise HelpersError(f"没有这个预训练模型 (unknown pretrained model): {name!r}。"
                           f"可选 (available): {list(PRETRAINED_NAMES)}。")
    return PRETRAINED_DIR / f"{name}.pt"


def list_pretrained() -> list[str]:
    """Names of the shipped models whose files are present, in the canonical order."""
    return [n for n in PRETRAINED_NAMES if (PRETRAINED_DIR / f"{n}.pt").is_file()]


_CACHE: dict = {}


def load_pretrained(name: str = "luong-general", device=None):
    """Load a shipped model ("none", "bahdanau", "luong-dot", "luong-general", "luong-concat").

    Refuses (``CheckpointError``) a file whose corpus version or vocabularies differ from the current
    corpus, so stale weights never load silently. Returns a fresh model object on every call.
    """
    from helpers.corpus import build_vocabs

    path = pretrained_path(name)
    if "vocabs" not in _CACHE:
        _CACHE["vocabs"] = build_vocabs()
    return load_checkpoint(path, device=device, expect_vocabs=_CACHE["vocabs"], check_corpus=True)
