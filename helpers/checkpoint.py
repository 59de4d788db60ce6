"""Checkpoints: model weights + a metadata record, saved atomically, loaded without running pickled code.

A checkpoint file is what ``torch.save`` writes for a plain dict::

    {"format": "helpers-seq2seq", "format_version": 1,
     "meta": "<JSON text>",                  # config, vocabularies, corpus, training record, metrics
     "state_dict": {name: tensor, ...}}

* **Loading never executes pickled code**: ``torch.load(..., weights_only=True)`` only rebuilds
  tensors, dicts, lists, strings and numbers; anything else (a ``__reduce__`` that would run code)
  is refused. The metadata travels as JSON text, so no Python object is ever unpickled.
* **Everything is checked, cheapest first, before any tensor data is touched**: the path (a str or
  Path of sane length), the file (a regular file, not a folder / FIFO / symlink loop, at most
  ``MAX_FILE_BYTES``), the zip archive's declared sizes (a small file cannot unpack into gigabytes),
  the format tag and version, the config (every size within ``CONFIG_BOUNDS``), then every tensor's
  declared name, layout, dtype and shape against the model that the config describes (built on the
  ``meta`` device, which allocates nothing; at most ``MAX_STATE_BYTES`` in all), and only then the
  SHA-256 of the weights, that every weight is finite (no NaN / inf: a diverged model, which would
  translate everything to ''; ``save_checkpoint`` refuses to write one too), the vocabulary sizes and the
  corpus version (for models of the toy corpus).
  Whatever is wrong raises ``CheckpointError`` (a ``ValueError``) saying what and what to do.
  The checks themselves live in ``helpers.runtime.safeio``.
* **Writes are atomic**: the file is written to a temporary file in the same folder
  (``.NAME.PID.XXXX.tmp``), flushed to disk, then moved over the old one with ``os.replace``. An
  interrupted save leaves the previous file untouched; a temporary file left by a killed process is
  removed by the next save of the same file. A read-only target is never replaced, and every failure
  (no permission, disk full, target is a folder, parent is a file) is a bilingual ``CheckpointError``.

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

from helpers.runtime.errors import CheckpointError, HelpersError
from helpers.runtime.safeio import (
    CONFIG_BOUNDS,
    MAX_FILE_BYTES,
    MAX_STATE_BYTES,
    RETRAIN,
    as_path,
    check_archive,
    check_config,
    check_file,
    check_target,
    check_tensors,
    corpus_record_ok,
    expected_tensors,
    non_finite,
    os_error_text,
    refuse,
    remove_stale_tmps,
    save_refusal,
)

__all__ = [
    "CONFIG_BOUNDS",
    "CheckpointError",
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_FILE_BYTES",
    "MAX_STATE_BYTES",
    "METRICS_PATH",
    "PRETRAINED_DIR",
    "PRETRAINED_NAMES",
    "attach_vocabs",
    "list_pretrained",
    "load_checkpoint",
    "load_metrics",
    "load_pretrained",
    "pretrained_path",
    "read_metadata",
    "save_checkpoint",
]

FORMAT = "helpers-seq2seq"
FORMAT_VERSION = 1
PRETRAINED_DIR = Path(__file__).resolve().parent / "pretrained"
PRETRAINED_NAMES = ("none", "rnnencdec", "bahdanau", "luong-dot", "luong-general", "luong-concat")
TOY_CORPUS = "toy"
METRICS_PATH = PRETRAINED_DIR / "metrics.json"




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
    A read-only existing file is refused, not replaced; any failure raises ``CheckpointError``.
    """
    import torch

    path = as_path(path, "保存")
    src_vocab = src_vocab if src_vocab is not None else getattr(model, "src_vocab", None)
    tgt_vocab = tgt_vocab if tgt_vocab is not None else getattr(model, "tgt_vocab", None)
    if src_vocab is None or tgt_vocab is None:
        raise HelpersError("保存检查点需要词表 (vocabularies): 请传入 src_vocab=… 和 tgt_vocab=…，"
                           "或先用 helpers.train.make_model(...) 建立带词表的模型。")
    if not hasattr(model, "config") or not hasattr(model, "state_dict"):
        raise HelpersError(f"只能保存 Seq2Seq 模型 (a helpers Seq2Seq model)，实际 (got) {type(model).__name__}。")
    if meta is not None and not isinstance(meta, dict):
        raise HelpersError(f"meta 应为字典 (a dict)，实际 (got) {type(meta).__name__}。例如 meta={{'metrics': {{...}}}}。")
    record = dict(getattr(model, "meta", None) or {})
    record.update(meta or {})
    if "corpus" in record and not corpus_record_ok(record["corpus"]):
        raise HelpersError(f"meta['corpus'] 格式不对 (malformed corpus record): {record['corpus']!r}。"
                           f"应为字典，例如 {_corpus_record()!r}；不填时默认是当前的玩具语料 (the toy corpus)。")
    state = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
    problem = non_finite(state)
    if problem:  # load_checkpoint would refuse the file: never write it
        raise save_refusal(path, problem, "这通常是训练发散 (training diverged) 的结果：请把学习率调小后重新训练，"
                                          "例如 python -m helpers.train --lr 0.001 --out my-model.pt。")
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

    try:
        check_target(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_tmps(path)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp")
    except OSError as exc:
        raise save_refusal(path, os_error_text(exc)) from None
    try:
        _umask = os.umask(0)
        os.umask(_umask)
        os.chmod(tmp, 0o666 & ~_umask)  # mkstemp makes 0600; give the file the usual permissions
        with os.fdopen(fd, "wb") as f:
            torch.save(payload, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)  # atomic on POSIX and Windows
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, (OSError, RuntimeError)):  # torch reports a short write as RuntimeError
            raise save_refusal(path, os_error_text(exc)) from None
        raise
    return path


# ----------------------------------------------------------------------------------------- load
def _read_payload(path):
    """All checks of the file, cheapest first; returns (meta, state_dict, config)."""
    import torch

    path = as_path(path, "加载")
    check_file(path)
    check_archive(path)
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # corrupt zip, truncated file, random bytes, refused pickle, ...
        text = str(exc)
        if "weights_only" in text or "Unsupported global" in text or "Unpickler" in text:
            what = "文件里有不允许的 Python 对象，出于安全拒绝加载 (refused: the file would run pickled code)"
        else:
            what = f"文件已损坏或被截断，或不是 torch 文件 (corrupt, truncated or not a torch file: {type(exc).__name__})"
        raise refuse(path, what) from None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise refuse(path, "这不是本项目的检查点 (foreign file: no 'helpers-seq2seq' format tag)")
    version = payload.get("format_version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise refuse(path, f"格式版本不支持 (unsupported format_version {version!r}，需要 {FORMAT_VERSION})")
    try:
        meta = json.loads(payload["meta"])
        state = payload["state_dict"]
        assert isinstance(meta, dict) and isinstance(state, dict)
    except Exception:
        raise refuse(path, "元数据或权重缺失、格式不对 (missing or malformed metadata / weights)") from None
    config = check_config(path, meta.get("model_config"))
    check_tensors(path, state, expected_tensors(path, config), config)
    if meta.get("weights_sha256") != weights_digest(state):
        raise refuse(path, "权重校验和不符，文件已损坏 (weights checksum mismatch: corrupt file)")
    problem = non_finite(state)
    if problem:
        raise refuse(path, problem, "这通常是训练发散 (training diverged) 留下的权重：请换一个检查点，或把学习率调小后重新训练，"
                                    "例如 python -m helpers.train --lr 0.001 --out my-model.pt。")
    return meta, state, config


def read_metadata(path) -> dict:
    """The metadata record of a checkpoint (after all file checks), without building the model."""
    return _read_payload(path)[0]


def _check_corpus(path, meta: dict) -> None:
    corpus = meta.get("corpus")
    if corpus is None:
        return
    if not corpus_record_ok(corpus):
        raise refuse(path, f"元数据中的语料记录格式不对 (malformed corpus record: {str(corpus)[:60]!r}，"
                            f"应为 e.g. {_corpus_record()!r})")
    if corpus.get("name") != TOY_CORPUS:
        return
    from helpers import corpus as corpus_module

    if corpus.get("version") != corpus_module.CORPUS_VERSION:
        raise refuse(path, f"模型是用旧版语料训练的 (stale: trained on corpus version {corpus.get('version')!r}，"
                            f"当前 current {corpus_module.CORPUS_VERSION!r})",
                      f"权重与当前词表不再对应。{RETRAIN}，或用 python -m helpers.train 重新训练。")


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

    meta, state, config = _read_payload(path)
    try:
        src_vocab = Vocab.from_dict(meta["src_vocab"])
        tgt_vocab = Vocab.from_dict(meta["tgt_vocab"])
    except Exception:
        raise refuse(path, "元数据中的词表无法读取 (unreadable vocabularies)") from None
    if check_corpus:
        _check_corpus(path, meta)
    if config.get("src_vocab_size") != len(src_vocab) or config.get("tgt_vocab_size") != len(tgt_vocab):
        raise refuse(path, f"词表大小与模型不符 (vocabulary size mismatch: src {len(src_vocab)} vs "
                            f"{config.get('src_vocab_size')}, tgt {len(tgt_vocab)} vs {config.get('tgt_vocab_size')})")
    if expect_vocabs is not None:
        want_src, want_tgt = expect_vocabs
        if not (_vocabs_equal(src_vocab, want_src) and _vocabs_equal(tgt_vocab, want_tgt)):
            raise refuse(path, "词表与期望的不一致 (vocabulary mismatch: the file was trained with other vocabularies)",
                          f"请用同一份语料和词表重新训练；预训练模型{RETRAIN}。")
    try:
        model = Seq2Seq.from_config(config)
        model.load_state_dict(state, strict=True)
    except Exception as exc:  # noqa: BLE001 - the checks above should leave nothing for torch to refuse
        raise refuse(path, f"权重与模型结构不符 (weights do not fit the model config: {type(exc).__name__}: {exc})") \
            from None
    model.eval()
    if device is not None:
        model.to(device)
    name = meta.get("name") if isinstance(meta.get("name"), str) else None
    return attach_vocabs(model, src_vocab, tgt_vocab, name=name, meta=meta)


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
    """Load a shipped model ("none", "rnnencdec", "bahdanau", "luong-dot", "luong-general", "luong-concat").

    Refuses (``CheckpointError``) a file whose corpus version or vocabularies differ from the current
    corpus, so stale weights never load silently. Returns a fresh model object on every call.
    """
    from helpers.corpus import build_vocabs

    path = pretrained_path(name)
    if "vocabs" not in _CACHE:
        _CACHE["vocabs"] = build_vocabs()
    return load_checkpoint(path, device=device, expect_vocabs=_CACHE["vocabs"], check_corpus=True)


def _metrics_problem(record) -> str:
    """What is wrong with a metrics record ("" = nothing): the parts notebooks 01 and 06 read."""
    if not isinstance(record, dict) or not isinstance(record.get("models"), dict) or not record["models"]:
        return "格式不对，缺少 models (malformed: no 'models')"
    if not isinstance(record.get("buckets"), (list, dict)):
        return "格式不对，缺少 buckets (malformed: no 'buckets')"
    for name, row in record["models"].items():
        if not isinstance(row, dict) or not all(isinstance(row.get(k), dict) for k in ("test", "long", "by_length")):
            return f"格式不对，模型 {str(name)[:40]!r} 的记录不完整 (malformed record of model {str(name)[:40]!r})"
    return ""


def load_metrics(path=None, *, missing_ok: bool = False) -> dict | None:
    """The evaluation record of the shipped models, ``helpers/pretrained/metrics.json``.

    It is written by ``make evaluate`` (``python -m helpers.tools.evaluate``) and read by notebooks 01
    and 06. A missing, unreadable, corrupt or incomplete file raises a ``HelpersError`` saying how to
    regenerate it; with ``missing_ok=True`` it gives None instead.
    """
    path = METRICS_PATH if path is None else Path(path)
    record = None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        problem = _metrics_problem(record)
    except FileNotFoundError:
        problem = "找不到 (missing)"
    except UnicodeDecodeError:
        problem = "已损坏，不是文本 (corrupt: not text)"
    except ValueError:
        problem = "已损坏，不是合法的 JSON (corrupt: not valid JSON)"
    except OSError as exc:
        problem = f"无法读取 (unreadable: {exc.strerror or type(exc).__name__})"
    if not problem:
        return record
    if missing_ok:
        return None
    raise HelpersError(f"评测结果文件 (metrics file) {path.name} {problem}。请运行 make evaluate"
                       f"（即 python -m helpers.tools.evaluate，几分钟）重新生成，"
                       f"或用 git checkout -- helpers/pretrained/metrics.json 取回仓库里的版本。")
