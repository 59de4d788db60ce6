"""Training the companion Seq2Seq models (teacher forcing, sections 9.9 / 9.10), and its command line.

``train(model, pairs, ...)`` minimises the token-level cross-entropy of the reference translation,
-Σ_t log p(y_t | y_<t, x), with the decoder fed the reference tokens (teacher forcing):

* masked loss: padding positions of the target are ignored (``ignore_index = <pad>``);
* Adam, gradient-norm clipping, mini-batches of sentences of similar length (bucketing: little
  padding, so little wasted work);
* a budget in epochs, steps and/or seconds, whichever ends first;
* validation char-BLEU (greedy decoding of a fixed validation sample) once per epoch or every
  ``eval_every`` steps, early stopping when it has not improved ``patience`` times, and the weights of
  the best validation point restored at the end;
* a ``tqdm.auto`` progress bar (a widget in Jupyter, text in a terminal) and an optional
  ``callback(history)`` so a notebook can redraw a live loss curve;
* Ctrl-C (KeyboardInterrupt) ends training cleanly: the best weights so far are kept;
* a NaN / inf loss or gradient raises ``TrainingDiverged`` (no NaN weights are left in the model);
* the same seed gives the same history on the CPU; CUDA or Apple MPS is used when present.

Command line (writes a checkpoint, see ``helpers.checkpoint``)::

    python -m helpers.train --model luong-general --out my-model.pt [--seed 0] [--epochs 5] [--seconds 120]

It never replaces a file that is already there unless ``--force`` is given, saves only weights that
were validated at least once (Ctrl-C before the first validation saves nothing), prints the path it
saved to, and exits non-zero when nothing usable was written. Every option (model sizes against the
bounds ``load_checkpoint`` enforces, lr, budgets, batch size, device) and the ``--out`` path are checked,
and ``--out`` is reserved against a concurrent run (``helpers.runtime.outputs.reserve_output``), before the first
training step. A loss or gradient that becomes NaN / inf stops training (``TrainingDiverged``, the model
back on its last good weights) and the command saves nothing.

``--out`` must be a new path or a writable regular file: a device (``/dev/null``), a FIFO, a socket, a
symlink or a folder is refused by its type, even with ``--force`` (saving would replace the node itself).
``--out newdir/`` (ending with a slash) names a folder and is refused with the file name to give instead
(``newdir/MODEL.pt``): the command does not invent a file name, so the path it writes is always the one typed.
Ctrl-C: the first press stops training and saves the best validated weights, a second one abandons the
save (exit 130); either way the lock file is removed and no traceback is printed (``_CtrlC``).
"""

from __future__ import annotations

import copy
import math
import os
import random
import sys
import time
from dataclasses import asdict, dataclass, field

import torch
from torch import nn

from helpers.checkpoint import attach_vocabs
from helpers.decode import decode_sentences
from helpers.runtime.env import pick_device
from helpers.runtime.errors import HelpersError, check_float, check_int
from helpers.runtime.outputs import reserve_output

__all__ = [
    "DEFAULT_SIZES",
    "NOTEBOOK_SIZES",
    "NOTEBOOK_STEPS",
    "TRAIN_THREADS",
    "History",
    "TrainingDiverged",
    "encode_pairs",
    "evaluate_bleu",
    "main",
    "make_model",
    "make_optimizer",
    "make_batches",
    "masked_loss",
    "train",
]

PAD, BOS, EOS, UNK = 0, 1, 2, 3

# torch threads while training (a deliberate choice, measured: see the comment below)
TRAIN_THREADS = 1
# Why one thread: these models are small (hidden 64-128, batch 64), so one step is a few hundred small
# GEMMs and GRU cells; a second thread saves little on an idle 2-core laptop and, on a loaded one, makes
# each op wait for a busy core (oversubscription). Measured on this project's 2-core machine with
# ``helpers.tools.bench.measure_thread_scaling(seconds=10)`` (the default notebook model, steps per second):
# idle cores 95.1 (1 thread) vs 109.9 (2 threads); both cores busy with another process 64.4 vs 12.0.
# One thread gives up 13 % on a quiet machine and is 5.4x faster on a busy one.

# The size of the models notebooks train live (small, fast). The shipped models use hidden 128 and a
# bidirectional encoder for all six variants, the baselines "none" and "rnnencdec" included (helpers.tools.pretrain.RECIPES).
DEFAULT_SIZES = {"emb_size": 64, "hidden_size": 64, "num_layers": 1, "rnn": "gru", "bidirectional": False,
                 "input_feeding": False, "dropout": 0.0}

# Notebook 06's live models: sizes on top of DEFAULT_SIZES, and the step budget of its full mode (batch 64,
# Adam 3e-3 with the cosine schedule: ``train``'s defaults). helpers.tools.bench trains
# NOTEBOOK_SIZES["luong-general"] for its time-to-quality and FLOPs-utilisation rows.
NOTEBOOK_SIZES = {"none": {"bidirectional": True}, "bahdanau": {"bidirectional": True},
                  "luong-general": {"bidirectional": True, "scaled_score": True}}
NOTEBOOK_STEPS = 1200


def make_model(variant: str = "luong-general", src_vocab=None, tgt_vocab=None, seed: int = 0, **sizes):
    """A fresh Seq2Seq (weights drawn with ``seed``) carrying its vocabularies, ready for ``train``/``translate``.

    Vocabularies default to ``helpers.corpus.build_vocabs()``; ``sizes`` override ``DEFAULT_SIZES``.
    """
    from helpers.seq2seq import Seq2Seq

    if src_vocab is None or tgt_vocab is None:
        from helpers.corpus import build_vocabs

        src_vocab, tgt_vocab = build_vocabs()
    config = {**DEFAULT_SIZES, **sizes}
    torch.manual_seed(seed)
    model = Seq2Seq(variant, len(src_vocab), len(tgt_vocab), **config)
    return attach_vocabs(model, src_vocab, tgt_vocab, name=variant, meta={})


# ------------------------------------------------------------------------------------------ data
def encode_pairs(pairs, src_vocab, tgt_vocab):
    """Pairs with ``.src`` / ``.tgt`` token lists -> (source id lists, target id lists), no <bos>/<eos>."""
    src = [list(src_vocab.encode(p.src)) for p in pairs]
    tgt = [list(tgt_vocab.encode(p.tgt)) for p in pairs]
    return src, tgt


def make_batches(lengths, batch_size: int, rng: random.Random, pool: int = 50) -> list[list[int]]:
    """Shuffle, then sort pools of ``pool * batch_size`` examples by length and cut them into batches.

    Sentences in a batch have similar lengths (little padding); the batch order is shuffled.
    """
    idx = list(range(len(lengths)))
    rng.shuffle(idx)
    batches = []
    for start in range(0, len(idx), pool * batch_size):
        chunk = sorted(idx[start: start + pool * batch_size], key=lambda i: lengths[i])
        batches.extend(chunk[k: k + batch_size] for k in range(0, len(chunk), batch_size))
    rng.shuffle(batches)
    return batches


def _padded(seqs, prefix=(), suffix=()) -> tuple[torch.Tensor, torch.Tensor]:
    """Whole data set as one padded tensor [N, L] + lengths [N] (sliced per batch later)."""
    full = [list(prefix) + s + list(suffix) for s in seqs]
    lens = torch.tensor([len(s) for s in full], dtype=torch.long)
    out = torch.full((len(full), int(lens.max())), PAD, dtype=torch.long)
    for n, s in enumerate(full):
        out[n, : len(s)] = torch.tensor(s, dtype=torch.long)
    return out, lens


def evaluate_bleu(model, pairs, batch_size: int = 500) -> float:
    """Corpus char-BLEU in [0, 1] of greedy translations of ``pairs`` (uses model.src_vocab / tgt_vocab),
    against every acceptable reference of a pair (``Pair.references``; ``.tgt`` for other objects)."""
    from helpers.metrics import bleu

    src_ids = [list(model.src_vocab.encode(p.src)) for p in pairs]
    result = decode_sentences(model, src_ids, batch_size=batch_size)
    hyps = [model.tgt_vocab.join(model.tgt_vocab.decode(t)) for t in result.tokens]
    refs = [[list(r) for r in getattr(p, "references", (p.tgt,))] for p in pairs]
    return bleu(hyps, refs, level="char")


def _gold_triples(pairs) -> list[torch.Tensor]:
    """Per pair a float tensor [L, 3] of (target j, source i, weight): sure links, uniform per target."""
    out = []
    for pair in pairs:
        links = sorted(getattr(pair, "sure", ()) or ())
        per_target: dict[int, list[int]] = {}
        for i, j in links:
            per_target.setdefault(j, []).append(i)
        rows = [(j, i, 1.0 / len(srcs)) for j, srcs in per_target.items() for i in srcs]
        out.append(torch.tensor(rows, dtype=torch.float32).reshape(-1, 3))
    return out


def alignment_loss(attention: torch.Tensor, batch: list[int], gold: list[torch.Tensor]) -> torch.Tensor:
    """Guided alignment: mean over target tokens with gold links of -Σ_i g_ji log α_ji.

    attention [B, T, S] (row t = the step that produces target token t), batch = pair indices,
    gold = ``_gold_triples`` of all pairs.
    """
    target = torch.zeros_like(attention)  # [B, T, S]
    for b, n in enumerate(batch):
        rows = gold[n]
        if len(rows):
            j, i = rows[:, 0].long(), rows[:, 1].long()
            keep = (j < attention.shape[1]) & (i < attention.shape[2])
            target[b, j[keep], i[keep]] = rows[keep, 2].to(attention.dtype)
    has_gold = target.sum(-1) > 0  # [B, T]
    if not bool(has_gold.any()):
        return attention.sum() * 0.0
    nll = -(target * torch.log(attention.clamp_min(1e-9))).sum(-1)  # [B, T]
    return nll[has_gold].mean()


def make_optimizer(params, lr: float, device) -> torch.optim.Adam:
    """Adam as ``train`` uses it: torch's fused implementation on the CPU and CUDA (one kernel over all
    parameters instead of a dozen small ops per tensor: 2.9 -> 0.7 ms per step for the shipped
    luong-concat, one thread). It rounds differently from the per-tensor loop, so weights trained before
    Models 4.0 are not reproduced bit for bit; the same seed still gives the same run."""
    device = torch.device(device)
    return torch.optim.Adam(params, lr=lr, fused=device.type in ("cpu", "cuda"))


def masked_loss(logits: torch.Tensor, targets: torch.Tensor, pad_id: int = PAD) -> torch.Tensor:
    """Mean cross-entropy over the real target tokens: logits [B, T, V], targets [B, T]; pad positions ignored."""
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), ignore_index=pad_id)


# --------------------------------------------------------------------------------------- history
@dataclass
class History:
    """What ``train`` records (plain lists, JSON-able via ``to_dict``; plot them live with a callback).

    step_loss[k]   mean token cross-entropy of training step k+1
    epoch_loss[e]  mean of the step losses of epoch e+1 (complete epochs only)
    val_step / val_bleu / val_time: step, char-BLEU on the validation sample, and wall seconds since
                   the start, at every validation
    stopped        why training ended: "budget", "early_stop", "target" or "interrupted" ("diverged" in the
                   history of a ``TrainingDiverged`` error: the loss became NaN / inf)
    """

    step_loss: list[float] = field(default_factory=list)
    epoch_loss: list[float] = field(default_factory=list)
    val_step: list[int] = field(default_factory=list)
    val_bleu: list[float] = field(default_factory=list)
    val_time: list[float] = field(default_factory=list)
    steps: int = 0
    epochs: float = 0.0
    wall_time: float = 0.0
    best_bleu: float = -1.0
    best_step: int = 0
    stopped: str = "budget"
    device: str = "cpu"
    seed: int = 0

    def to_dict(self) -> dict:
        return asdict(self)

    def summary(self) -> dict:
        """The short record stored in checkpoint metadata (no per-step lists)."""
        return {k: v for k, v in self.to_dict().items() if k not in ("step_loss",)}


MAX_BATCH_SIZE = 100_000
MAX_LR = 10.0  # Adam with lr > 1 already diverges for these models; 10 leaves room for experiments


class TrainingDiverged(HelpersError):
    """The training loss or its gradient became NaN or infinite; the model holds its last good weights."""

    def __init__(self, message: str, history: History):
        super().__init__(message)
        self.history = history


def _check_budget(epochs, steps, seconds):
    for name, value in (("epochs", epochs), ("steps", steps), ("seconds", seconds)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
            raise HelpersError(f"训练预算 {name} 应为有限的正数或 None (a finite positive number or None)，"
                               f"实际为 {value!r}。例如 {name}=5；不限就不要给它 (leave it out)。")
        if name == "steps" and not float(value).is_integer():
            raise HelpersError(f"训练预算 steps 应为整数 (an integer)，实际为 {value!r}。例如 steps=500。")
    if epochs is None and steps is None and seconds is None:
        return 5, None, None  # default budget
    return epochs, steps, seconds


def check_train_options(batch_size, lr) -> tuple[int, float]:
    """``batch_size`` an int in 1..MAX_BATCH_SIZE, ``lr`` a finite number in [0, MAX_LR] (0: no updates)."""
    batch_size = check_int("batch_size", batch_size, 1, MAX_BATCH_SIZE, "例如 batch_size=64（命令行 --batch-size 64）。")
    lr = check_float("lr", lr, 0.0, MAX_LR, "例如 lr=0.003（命令行 --lr 0.003；0 = 不更新权重 no updates）。")
    return batch_size, lr


# ----------------------------------------------------------------------------------------- train
def train(model, pairs=None, valid=None, *, epochs=None, steps=None, seconds=None, batch_size: int = 64,
          lr: float = 3e-3, clip: float = 1.0, seed: int = 0, eval_every: int | None = None,
          val_size: int = 300, patience: int = 3, target_bleu: float | None = None, device=None,
          callback=None, callback_every: int = 50, progress: bool = True, restore_best: bool = True,
          lr_schedule: str = "cosine", word_dropout: float = 0.0, align_weight: float = 0.0,
          threads: int | None = TRAIN_THREADS) -> History:
    """Train ``model`` (from ``make_model``) on ``pairs`` (default: ``load_corpus("train")``); returns a History.

    valid: validation pairs (default: the first ``val_size`` of ``load_corpus("valid")``; ``False`` = none).
    Budget: ``epochs`` / ``steps`` / ``seconds``, whichever ends first (default 5 epochs).
    eval_every: validate every this many steps (default: at the end of every epoch).
    patience: stop after this many validations without a better BLEU (None = never).
    target_bleu: stop as soon as the validation BLEU reaches it (time-to-quality).
    callback(history): called every ``callback_every`` steps and after every validation.
    lr_schedule: "cosine" (from lr down to lr / 10 over the budget, when it is given in steps or epochs)
    or "constant".
    word_dropout: probability of replacing a decoder input token by <unk> (teacher forcing with holes,
    Bowman et al. 2016), so the decoder leans more on the attention context than on its own history.
    align_weight: weight λ of guided alignment (Chen et al. 2016, "Guided Alignment Training"): the loss
    adds λ · cross-entropy between each target token's gold sure links (uniform over them) and the
    model's attention row. 0 (default) = attention is learned from the translation loss alone.
    threads: torch's intra-op threads while training (default ``TRAIN_THREADS`` = 1; restored afterwards;
    None leaves torch's setting alone).
    """
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise HelpersError(f"threads 应为正整数或 None (a positive integer or None)，实际为 {threads!r}。")
    batch_size, lr = check_train_options(batch_size, lr)
    before = torch.get_num_threads()
    if threads is not None:
        torch.set_num_threads(threads)
    try:
        return _train(model, pairs, valid, epochs=epochs, steps=steps, seconds=seconds, batch_size=batch_size,
                      lr=lr, clip=clip, seed=seed, eval_every=eval_every, val_size=val_size, patience=patience,
                      target_bleu=target_bleu, device=device, callback=callback, callback_every=callback_every,
                      progress=progress, restore_best=restore_best, lr_schedule=lr_schedule,
                      word_dropout=word_dropout, align_weight=align_weight)
    finally:
        torch.set_num_threads(before)


def _train(model, pairs, valid, *, epochs, steps, seconds, batch_size, lr, clip, seed, eval_every, val_size,
           patience, target_bleu, device, callback, callback_every, progress, restore_best, lr_schedule,
           word_dropout, align_weight) -> History:
    from helpers.runtime.env import seed_everything

    epochs, steps, seconds = _check_budget(epochs, steps, seconds)
    if not hasattr(model, "src_vocab"):
        raise HelpersError("模型没有词表 (model has no vocabularies): 请用 helpers.train.make_model(...) 建立模型。")
    if pairs is None:
        from helpers.corpus import load_corpus

        pairs = load_corpus("train")
    if valid is None:
        from helpers.corpus import load_corpus

        valid = load_corpus("valid")[:val_size]
    valid = list(valid or [])[:val_size] if valid is not False else []
    pairs = list(pairs)
    if not pairs:
        raise HelpersError("训练数据为空 (no training pairs)。请传入 load_corpus('train') 之类的句对列表。")

    device = pick_device(device)
    seed_everything(seed)
    rng = random.Random(seed)
    model.to(device)
    src_ids, tgt_ids = encode_pairs(pairs, model.src_vocab, model.tgt_vocab)
    src_all, src_lens_all = _padded(src_ids)  # [N, S], [N]
    tgt_all, tgt_lens_all = _padded(tgt_ids, prefix=(BOS,), suffix=(EOS,))  # [N, T + 1]: <bos> y <eos>
    lengths = [len(s) * 1000 + len(t) for s, t in zip(src_ids, tgt_ids)]
    gold = _gold_triples(pairs) if align_weight else None
    opt = make_optimizer(model.parameters(), lr, device)

    hist = History(device=str(device), seed=seed)
    best_state = copy.deepcopy(model.state_dict())
    bad_evals = 0
    batches_per_epoch = math.ceil(len(pairs) / batch_size)
    total = steps if steps is not None else (int(epochs * batches_per_epoch) if epochs is not None else None)
    if lr_schedule not in ("cosine", "constant"):
        raise HelpersError(f"lr_schedule 只能是 'cosine' 或 'constant'，实际为 {lr_schedule!r}。")
    if lr_schedule == "cosine" and total:
        def factor(step):  # 1 -> 0.1 along half a cosine
            return 0.1 + 0.45 * (1 + math.cos(math.pi * min(step, total) / total))

        sched = torch.optim.lr_scheduler.LambdaLR(opt, factor)
    else:
        sched = None
    bar = _progress(total, progress, getattr(model, "name", None) or model.config["variant"])
    start = time.perf_counter()

    def validate() -> bool:
        """Validate, keep the best weights; True when training should stop."""
        nonlocal best_state, bad_evals
        if not valid:
            return False
        score = evaluate_bleu(model, valid)
        model.train()
        hist.val_step.append(hist.steps)
        hist.val_bleu.append(score)
        hist.val_time.append(time.perf_counter() - start)
        if score > hist.best_bleu:
            hist.best_bleu, hist.best_step, bad_evals = score, hist.steps, 0
            best_state = copy.deepcopy(model.state_dict())
        else:
            bad_evals += 1
        bar.set_postfix(loss=f"{hist.step_loss[-1]:.3f}", bleu=f"{score:.3f}", refresh=False)
        if callback is not None:
            callback(hist)
        if target_bleu is not None and score >= target_bleu:
            hist.stopped = "target"
            return True
        if patience is not None and bad_evals >= patience:
            hist.stopped = "early_stop"
            return True
        return False

    model.train()
    diverged = None  # (what, English, value) when the loss or the gradient became NaN / inf
    try:
        epoch = 0
        done = False
        while not done and diverged is None:
            epoch_losses = []
            batches = make_batches(lengths, batch_size, rng)
            for n, batch in enumerate(batches):
                idx = torch.tensor(batch, dtype=torch.long)
                S, T1 = int(src_lens_all[idx].max()), int(tgt_lens_all[idx].max())
                src = src_all[idx, :S].to(device)  # [B, S]
                src_lens = src_lens_all[idx].to(device)  # [B]
                tgt = tgt_all[idx, :T1].to(device)  # [B, T + 1]
                tgt_in = tgt[:, :-1]  # [B, T]
                if word_dropout:
                    holes = (torch.rand(tgt_in.shape, device=device) < word_dropout) & (tgt_in > EOS)
                    tgt_in = tgt_in.masked_fill(holes, UNK)
                logits, attention = model(src, src_lens, tgt_in)  # [B, T, V], [B, T, S]
                loss = masked_loss(logits, tgt[:, 1:])  # padding ignored
                if align_weight and attention is not None:
                    loss = loss + align_weight * alignment_loss(attention, batch, gold)
                loss_value = loss.item()
                if not math.isfinite(loss_value):
                    diverged = ("损失", "loss", loss_value)
                    break
                opt.zero_grad(set_to_none=True)
                loss.backward()
                if clip:
                    norm = float(nn.utils.clip_grad_norm_(model.parameters(), clip))
                    if not math.isfinite(norm):  # caught before the step: the weights stay finite
                        diverged = ("梯度范数", "gradient norm", norm)
                        break
                opt.step()
                if sched is not None:
                    sched.step()
                hist.steps += 1
                hist.step_loss.append(loss_value)
                epoch_losses.append(hist.step_loss[-1])
                hist.epochs = epoch + (n + 1) / len(batches)
                hist.wall_time = time.perf_counter() - start
                bar.update(1)
                if hist.steps % 10 == 0:
                    bar.set_postfix(loss=f"{hist.step_loss[-1]:.3f}", refresh=False)
                if callback is not None and callback_every and hist.steps % callback_every == 0:
                    callback(hist)
                if eval_every and hist.steps % eval_every == 0 and validate():
                    done = True
                    break
                if (steps is not None and hist.steps >= steps) or \
                        (seconds is not None and hist.wall_time >= seconds):
                    done = True
                    break
            if diverged is not None:
                break
            if len(epoch_losses) == len(batches):
                hist.epoch_loss.append(sum(epoch_losses) / len(epoch_losses))
            epoch += 1
            if epochs is not None and epoch >= epochs:
                done = True
            if not eval_every and hist.stopped == "budget" and (len(epoch_losses) == len(batches) or done):
                if validate():
                    done = True
            elif eval_every and done and hist.stopped == "budget" and hist.steps not in hist.val_step:
                validate()  # a final validation at the end of the budget
    except KeyboardInterrupt:
        hist.stopped = "interrupted"
    finally:
        bar.close()
    if diverged is not None:  # never leave NaN weights behind: the best validated (or the initial) ones
        model.load_state_dict(best_state)
        model.eval()
        hist.stopped, hist.wall_time = "diverged", time.perf_counter() - start
        what, english, value = diverged
        kept = f"第 {hist.best_step} 步验证过的最佳权重 (best validated weights)" if hist.val_bleu else \
            "训练开始前的初始权重 (the initial weights)"
        raise TrainingDiverged(
            f"训练发散 (training diverged)：第 {hist.steps + 1} 步的{what} ({english}) 变成了 {value}，"
            f"训练已停止 (stopped)。模型已恢复为{kept}。请把学习率 (lr) 调小，例如 lr=0.003"
            f"（命令行 --lr 0.003），或保留梯度裁剪 (clip=1.0)，然后重新训练。", hist)
    if restore_best and hist.val_bleu:
        model.load_state_dict(best_state)
    model.eval()
    hist.wall_time = time.perf_counter() - start
    if progress:  # a plain line that survives in saved notebooks, where the progress widget does not
        bleu = f"，最佳验证 char-BLEU {hist.best_bleu:.3f}" if hist.val_bleu else ""
        print(f"训练 {getattr(model, 'name', None) or model.config['variant']} 结束 (done): {hist.steps} 步，"
              f"{hist.wall_time:.1f} s，最后损失 (loss) {hist.step_loss[-1] if hist.step_loss else float('nan'):.3f}"
              f"{bleu}，停止原因 (stopped): {hist.stopped}")
    if callback is not None:
        try:
            callback(hist)  # a last redraw with the final numbers
        except KeyboardInterrupt:
            hist.stopped = "interrupted"
    return hist


def _progress(total, enabled: bool, name: str):
    from tqdm.auto import tqdm

    return tqdm(total=total, disable=not enabled, desc=f"训练 {name}", unit="step", leave=True)


# ------------------------------------------------------------------------------------ command line
def build_parser():
    """The command line of ``python -m helpers.train`` (notebook 06 prints its ``format_help()`` in-process)."""
    import argparse

    from helpers.seq2seq import VARIANTS

    p = argparse.ArgumentParser(prog="python -m helpers.train",
                                description="训练一个英译中 Seq2Seq 模型并保存检查点 (train a model, save a checkpoint)")
    p.add_argument("--model", default="luong-general", choices=VARIANTS, help="模型类型 (variant)")
    p.add_argument("--out", required=True, help="检查点路径 (checkpoint path), e.g. my-model.pt")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--epochs", type=float, default=None)
    p.add_argument("--steps", type=int, default=None)
    p.add_argument("--seconds", type=float, default=None)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--hidden", type=int, default=DEFAULT_SIZES["hidden_size"])
    p.add_argument("--emb", type=int, default=DEFAULT_SIZES["emb_size"])
    p.add_argument("--rnn", default="gru", choices=["gru", "lstm"])
    p.add_argument("--bidirectional", action="store_true")
    p.add_argument("--input-feeding", action="store_true")
    p.add_argument("--patience", type=int, default=3)
    p.add_argument("--device", default=None, help="cpu / cuda / mps (默认自动 default: auto)")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--force", action="store_true", help="覆盖已有的 --out 文件 (overwrite an existing --out file)")
    return p


class _CtrlC:
    """Ctrl-C (SIGINT) while the command runs: the first and the second press raise ``KeyboardInterrupt``
    (the first one stops training, which keeps the best weights, and the command saves them; the second one
    abandons the save), but a press while the command reserves its output or cleans up (removes its lock
    file, prints its last lines) is only counted: the lock file is always removed and no traceback is
    printed, however often Ctrl-C is pressed. Installed only in the main thread, over Python's default
    handler (a SIGINT ignored by the shell, e.g. in a background job, stays ignored)."""

    def __init__(self):
        import signal
        import threading

        self.presses, self.raised, self.shielded, self.previous = 0, 0, False, None
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self.previous = signal.signal(signal.SIGINT, self)

    def __call__(self, signum, frame):
        self.presses += 1
        if not self.shielded and self.raised < 2:
            self.raised += 1
            raise KeyboardInterrupt

    def restore(self) -> None:
        import signal

        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None


def main(argv=None) -> int:
    """``python -m helpers.train``: returns the exit code (0 saved, 1 nothing usable saved, 2 refused
    before training, 130 interrupted). Ctrl-C is handled as ``_CtrlC`` says; called in-process, Python's
    SIGINT handler is put back when it returns."""
    ctrl_c = _CtrlC()
    try:
        return _run(argv, ctrl_c)
    finally:
        ctrl_c.restore()


def _cli() -> int:
    """``python -m helpers.train`` itself: as ``main``, and a Ctrl-C after the run, while Python exits, is
    ignored (SIG_IGN, which Python keeps while it shuts down; a Python handler would be reset to the default
    there, and a late Ctrl-C would end the process by the signal instead of with the exit code)."""
    import signal

    ctrl_c = _CtrlC()
    code = _run(None, ctrl_c)
    if ctrl_c.previous is not None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    return code


def _out_is_a_folder(args) -> None:
    """``--out newdir/`` (a trailing slash) means a folder: refused, naming the file to give instead."""
    if args.out.endswith(tuple(sep for sep in (os.sep, os.altsep) if sep)):
        suggestion = os.path.join(args.out, f"{args.model}.pt")
        raise HelpersError(f"--out {args.out} 以 {args.out[-1]} 结尾，表示一个文件夹 (a folder)，不是检查点文件名 "
                           f"(not a checkpoint file name)。请给出文件名，例如 --out {suggestion}。")


def _run(argv, ctrl_c: _CtrlC) -> int:
    import shlex

    from helpers.checkpoint import save_checkpoint

    p = build_parser()
    args = p.parse_args(argv)
    argv = sys.argv[1:] if argv is None else list(argv)
    reservation, saved = None, False
    try:
        try:  # everything is checked, and --out reserved, before a single training step
            src_vocab, tgt_vocab = _check_cli(args)
            _out_is_a_folder(args)
            ctrl_c.shielded = True  # the lock file and the object that removes it come into being together
            reservation = reserve_output(args.out, force=args.force)
            ctrl_c.shielded = False
        except ValueError as exc:
            print(f"错误 (error): {exc}", file=sys.stderr)
            return 2
        out = reservation.path
        if ctrl_c.presses:  # Ctrl-C while the output was being reserved
            raise KeyboardInterrupt
        if reservation.other_pid is not None:
            print(f"注意 (note): 进程 (PID) {reservation.other_pid} 也在训练并写入 {out}；因为 --force，"
                  f"谁最后结束，谁的结果留下 (the run that finishes last wins)。", file=sys.stderr)
        model = make_model(args.model, src_vocab, tgt_vocab, seed=args.seed, **_cli_sizes(args))
        hist = train(model, epochs=args.epochs, steps=args.steps, seconds=args.seconds,
                     batch_size=args.batch_size, lr=args.lr, seed=args.seed, patience=args.patience,
                     device=args.device, progress=not args.no_progress)
        if not hist.val_bleu:  # never validated: these weights are not known to be any good
            ctrl_c.shielded = True
            why = "训练被中断 (interrupted)" if hist.stopped == "interrupted" else "训练结束 (finished)"
            print(f"错误 (error): {why}，但还没有做过一次验证 (no validation yet, {hist.steps} steps)，"
                  f"所以没有保存 (nothing saved){'；' + str(out) + ' 保持不变 (left unchanged)' if os.path.lexists(out) else ''}。"
                  "请让训练至少跑完一次验证（一个 epoch，或用 --steps / --seconds 给足预算）。", file=sys.stderr)
            return 1
        target = reservation.target()
        path = save_checkpoint(model.cpu(), target, meta={
            "name": args.model,
            "train": {**hist.summary(), "batch_size": args.batch_size, "lr": args.lr},
            "metrics": {"valid_char_bleu": hist.best_bleu},
            "command": "python -m helpers.train " + shlex.join(argv),
        })
        saved = True
    except TrainingDiverged as exc:
        ctrl_c.shielded = True
        print(f"错误 (error): {exc}\n没有保存 (nothing saved)；{reservation.path} 保持原样 (left as it was)。",
              file=sys.stderr)
        return 1
    except ValueError as exc:  # HelpersError and friends: a message for the user, no traceback
        ctrl_c.shielded = True
        print(f"错误 (error): {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C outside the training loop, or a second one (the save is atomic)
        ctrl_c.shielded = True
        where = f"；{reservation.path} 保持原样 (left as it was)" if reservation is not None else ""
        print(f"已中断 (interrupted)：没有保存 (nothing saved){where}。", file=sys.stderr)
        return 130
    finally:
        ctrl_c.shielded = True  # from here on Ctrl-C is only counted: the lock file is always removed
        if reservation is not None:
            reservation.release(saved)
    print(f"{args.model}: {hist.steps} steps, {hist.wall_time:.1f} s, best valid char-BLEU {hist.best_bleu:.3f} "
          f"at step {hist.best_step} ({hist.stopped}); saved {path}")
    if path != out:
        print(f"错误 (error): 训练期间 {out} 被别的程序写入了 (written by another program meanwhile)，"
              f"没有覆盖它 (not overwritten)；本次的模型保存在 (saved to) {path}。", file=sys.stderr)
        return 1
    return 0


def _cli_sizes(args) -> dict:
    return {"emb_size": args.emb, "hidden_size": args.hidden, "rnn": args.rnn, "bidirectional": args.bidirectional,
            "input_feeding": args.input_feeding}


def _check_cli(args):
    """Every option of the command line, checked before training; returns the vocabularies.

    The model size is held to the bounds that ``load_checkpoint`` enforces (``helpers.runtime.safeio``), so the
    command never trains a model whose file would then be refused."""
    from helpers.corpus import build_vocabs
    from helpers.runtime.safeio import CONFIG_BOUNDS, check_model_config, declared_weights

    check_int("--seed", args.seed, 0, 2**32 - 1, "例如 --seed 0。")
    _check_budget(args.epochs, args.steps, args.seconds)
    check_train_options(args.batch_size, args.lr)
    check_int("--patience", args.patience, 1, 1000, "例如 --patience 3。")
    pick_device(args.device)
    low, high = CONFIG_BOUNDS["hidden_size"]
    todo = (f"这样大小的模型训练出来也无法被 load_checkpoint 加载 (the checkpoint would be refused)。"
            f"请把 --emb 设在 {CONFIG_BOUNDS['emb_size'][0]} 到 {CONFIG_BOUNDS['emb_size'][1]} 之间、"
            f"--hidden 设在 {low} 到 {high} 之间（越小越快），例如 --hidden 128。")
    check_int("--emb (emb_size)", args.emb, *CONFIG_BOUNDS["emb_size"], todo)
    check_int("--hidden (hidden_size)", args.hidden, *CONFIG_BOUNDS["hidden_size"], todo)
    src_vocab, tgt_vocab = build_vocabs()
    with torch.device("meta"):  # the exact config of the model to train, without allocating its weights
        probe = make_model(args.model, src_vocab, tgt_vocab, seed=args.seed, **_cli_sizes(args))
    try:
        declared_weights(check_model_config(probe.config))
    except HelpersError as exc:
        raise HelpersError(f"模型太大 (model too large)：{str(exc).rstrip('。')}。{todo}") from None
    return src_vocab, tgt_vocab

if __name__ == "__main__":
    sys.exit(_cli())
