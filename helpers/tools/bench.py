"""Every benchmark of the project, side by side in one process: ``python -m helpers.tools.bench``.

    python -m helpers.tools.bench [--quick] [--json PATH]

Prints a Markdown table (machine, date, each figure and its goal) and writes the same figures to JSON.
These are benchmarks, not tests: nothing is asserted. Ratios are measured pair by pair in the same run
(so a busy machine slows both sides alike); times are medians of several runs. ``docs/benchmarks.md``
explains each figure and holds the latest full table.

The measurements, each usable on its own:

* ``measure_train_speedup``    teacher-forced training throughput of the vectorised Luong decoder
  (``model(...)``: one RNN call over all target steps, one batched Eq. (9-37)-(9-39) computation) versus
  the step loop (``model.forward_stepwise(...)``), pair by pair, alternating. Both paths share the costs
  that cannot be vectorised over time (encoder RNN, the decoder recurrence, Adam), so the whole-step
  ratio is bounded by them (Amdahl); ``head_speedup`` isolates steps ①-③ + W_s.
* ``measure_time_to_quality``  wall seconds from the start of training a model until its validation
  char-BLEU first reaches ``target`` (0.90); validation time is included. Two rows, each labelled
  (``trained_models()``): notebook 06's live model (``helpers.train.NOTEBOOK_SIZES["luong-general"]``, the
  recipe the notebook itself imports) and one shipped recipe (``helpers.tools.pretrain.RECIPES``).
* ``measure_train_flops``      FLOPs utilisation of real training steps of the same two models: FLOPs
  counted by ``torch.utils.flop_counter`` on real length-bucketed batches of ``train`` (forward +
  backward), divided by the measured step time (forward + backward + clipping + Adam), relative to the
  best one-thread fp32 GEMM rate of this CPU.
* ``helpers.tools.train_speed.measure_training_paths``  every shipped recipe (and each Luong score with
  and without input feeding): target tokens per CPU-second and share of the one-thread GEMM peak
  (``torch.mm`` at these models' sizes), before and after the training fast paths of the Models 4.0
  issue (packed encoder GRU and ``run_steps`` vs ``Encoder._padded_gru`` and
  ``helpers.speedups.teacher_forcing``), alternating batch by batch in one run; the ratio is the speed-up.
* ``measure_thread_scaling``   live-training steps/s with 1 and with all threads, on cores that it
  checks are idle (``/proc/stat``: the share of the time the other processes kept each core busy,
  before and during the measurement; where ``/proc/stat`` cannot be read it says so) and on cores it
  loads itself.
* ``measure_decode_speedup``   batched greedy decoding of the test split versus one sentence at a time.
* ``measure_explorer_latency`` the AttentionExplorer's step-slider and new-sentence redraw latency.
* ``measure_step_through_latency`` the same for notebook 05's StepThrough (Fig. 9-25, one decoding
  step); measured right after the explorer, so their ratio compares the two on the same machine state.

JSON keys: train_paths (before / after per model, with the GEMM peak), train_speedup_vectorized_vs_loop, train_speedup_lstm, time_to_quality (one record per model of
``trained_models()``), train_flops (the same), decode_speedup_batched, widget_latency_ms_median,
widget_translate_ms_median, step_through_latency_ms_median, step_through_sentence_ms_median,
step_through_vs_explorer, notebooks_quick_total_s, cpu_peak_gflops_per_s, thread_scaling (with its
idle check), peak_rss_mb, plus the machine record. ``measure_train_speedup`` uses a synthetic batch:
its ratio compares two code paths of one model, nothing more.
"""

from __future__ import annotations

import argparse
import copy
import datetime
import json
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path

import torch
from torch import nn

GOALS = {
    "train_speedup_vectorized_vs_loop": "≥ 3×",
    "time_to_quality_s": "≤ 60 s",
    "decode_speedup_batched": "≥ 10×",
    "widget_latency_ms_median": "≤ 100 ms",
    "widget_translate_ms_median": "≤ 300 ms",
    "step_through_latency_ms_median": "≤ 100 ms",
}


# --- training throughput: vectorised vs step-loop Luong ---------------------------------------

def _train_steps(model, opt, fn, src, src_lens, tgt_in, tgt_out, steps: int) -> float:
    loss_fn = nn.CrossEntropyLoss(ignore_index=0)
    t0 = time.perf_counter()
    for _ in range(steps):
        opt.zero_grad(set_to_none=True)
        logits, _ = fn(src, src_lens, tgt_in)  # [B, T, V]
        loss = loss_fn(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1))
        loss.backward()
        opt.step()
    return time.perf_counter() - t0


def measure_train_speedup(repeats: int = 7, batch: int = 64, src_len: int = 12, tgt_len: int = 12,
                          steps: int = 5, variant: str = "luong-general", src_vocab: int = 400,
                          tgt_vocab: int = 500, emb_size: int = 64, hidden_size: int = 128,
                          rnn: str = "gru", warmup: int = 2, seed: int = 0, threads: int | None = None) -> dict:
    """Median target tokens/s of vectorised vs step-loop Luong training; returns a dict with the ratio.

    Keys: vectorised_tokens_per_s, loop_tokens_per_s, speedup (= vectorised / loop), and the settings.
    Source lengths vary between src_len // 2 and src_len (padding as in a real batch). ``threads``
    sets torch's intra-op threads for the measurement only (restored afterwards); None keeps them.
    """
    before = torch.get_num_threads()
    if threads:
        torch.set_num_threads(threads)
    try:
        return _measure(repeats, batch, src_len, tgt_len, steps, variant, src_vocab, tgt_vocab, emb_size,
                        hidden_size, rnn, warmup, seed)
    finally:
        torch.set_num_threads(before)


def _head_time(decoder, state, h, steps: int, vectorised: bool) -> float:
    """Steps ①-③ + W_s, forward + backward, for h [B, T, H]: all t at once or one t at a time."""
    t0 = time.perf_counter()
    for _ in range(steps):
        if vectorised:
            logits = decoder.attend(h, state)[0]  # [B, T, V]
        else:
            logits = torch.stack([decoder.attend(h[:, t], state)[0] for t in range(h.shape[1])], 1)
        logits.logsumexp(-1).mean().backward()
    return time.perf_counter() - t0


def _measure(repeats, batch, src_len, tgt_len, steps, variant, src_vocab, tgt_vocab, emb_size,
             hidden_size, rnn, warmup, seed) -> dict:
    from helpers.seq2seq import Seq2Seq

    gen = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    model_vec = Seq2Seq(variant, src_vocab, tgt_vocab, emb_size=emb_size, hidden_size=hidden_size, rnn=rnn)
    model_loop = copy.deepcopy(model_vec)  # same weights
    opt_vec = torch.optim.Adam(model_vec.parameters(), lr=1e-3)
    opt_loop = torch.optim.Adam(model_loop.parameters(), lr=1e-3)

    src = torch.randint(1, src_vocab, (batch, src_len), generator=gen)  # [B, S]
    src_lens = torch.randint(max(1, src_len // 2), src_len + 1, (batch,), generator=gen)  # [B]
    src_lens[0] = src_len
    src = src.masked_fill(torch.arange(src_len)[None, :] >= src_lens[:, None], 0)
    tgt = torch.randint(1, tgt_vocab, (batch, tgt_len + 1), generator=gen)  # [B, T + 1]
    tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]  # [B, T] each

    args = (src, src_lens, tgt_in, tgt_out)
    _train_steps(model_vec, opt_vec, model_vec, *args, warmup)
    _train_steps(model_loop, opt_loop, model_loop.forward_stepwise, *args, warmup)
    t_vec, t_loop = [], []
    for r in range(repeats):  # pair by pair, alternating which goes first
        pair = [("vec", model_vec, opt_vec, model_vec), ("loop", model_loop, opt_loop, model_loop.forward_stepwise)]
        for name, model, opt, fn in (pair if r % 2 == 0 else pair[::-1]):
            dt = _train_steps(model, opt, fn, *args, steps)
            (t_vec if name == "vec" else t_loop).append(dt)

    # the part the vectorisation changes, on the same model and encoder outputs
    state = model_vec.start(src, src_lens)
    state.encoder_outputs = state.encoder_outputs.detach()
    h = torch.randn(batch, tgt_len, hidden_size, requires_grad=True)  # [B, T, H] stands in for h_t
    h_vec, h_loop = [], []
    for _ in range(repeats):
        h_vec.append(_head_time(model_vec.decoder, state, h, steps, True))
        h_loop.append(_head_time(model_vec.decoder, state, h, steps, False))

    tokens = batch * tgt_len * steps
    vec = tokens / statistics.median(t_vec)
    loop = tokens / statistics.median(t_loop)
    return {
        "vectorised_tokens_per_s": vec, "loop_tokens_per_s": loop, "speedup": vec / loop,
        "head_speedup": statistics.median(h_loop) / statistics.median(h_vec),
        "variant": variant, "batch": batch, "src_len": src_len, "tgt_len": tgt_len, "repeats": repeats,
        "steps_per_repeat": steps, "hidden_size": hidden_size, "emb_size": emb_size, "rnn": rnn,
        "threads": torch.get_num_threads(),
    }


# --- time to quality and decoding ------------------------------------------------------------

def trained_models() -> dict:
    """What the time-to-quality and FLOPs rows train: label -> (variant, sizes, batch_size, lr).

    Notebook 06's live luong-general (its sizes from ``helpers.train.NOTEBOOK_SIZES``, train's defaults
    otherwise) and the shipped luong-concat recipe (``helpers.tools.pretrain.RECIPES``).
    """
    from helpers.tools.pretrain import RECIPES
    from helpers.train import DEFAULT_SIZES, NOTEBOOK_SIZES

    nb = {**DEFAULT_SIZES, **NOTEBOOK_SIZES["luong-general"]}
    shipped = RECIPES["luong-concat"]
    return {
        f"notebook 06's luong-general (hidden {nb['hidden_size']}, bidirectional, scaled score)":
            ("luong-general", NOTEBOOK_SIZES["luong-general"], 64, 3e-3),
        f"shipped luong-concat recipe (hidden {shipped['sizes']['hidden_size']}, bidirectional)":
            ("luong-concat", shipped["sizes"], shipped["batch_size"], shipped["lr"]),
    }


def measure_time_to_quality(target: float = 0.90, variant: str = "luong-general", sizes: dict | None = None,
                            batch_size: int = 64, lr: float = 3e-3, eval_every: int = 50, val_size: int = 300,
                            max_seconds: float = 300, seed: int = 0) -> dict:
    """Train ``make_model(variant, **sizes)`` until validation char-BLEU ≥ target; seconds, steps, the curve.

    The learning rate is constant (the budget is in seconds, so there is no schedule to follow).
    """
    from helpers.corpus import load_corpus
    from helpers.train import make_model, train

    pairs, valid = load_corpus("train"), load_corpus("valid")[:val_size]
    model = make_model(variant, seed=seed, **(sizes or {}))
    hist = train(model, pairs, valid, seconds=max_seconds, eval_every=eval_every, target_bleu=target,
                 patience=None, seed=seed, progress=False, device="cpu", batch_size=batch_size, lr=lr,
                 lr_schedule="constant")
    reached = hist.stopped == "target"
    return {
        "time_to_quality_s": hist.val_time[-1] if reached else None,
        "steps": hist.steps, "reached": reached, "target": target, "variant": variant, "sizes": sizes or {},
        "curve": list(zip(hist.val_step, [round(t, 1) for t in hist.val_time], [round(b, 3) for b in hist.val_bleu])),
        "threads": torch.get_num_threads(),
    }


def measure_train_flops(variant: str = "luong-general", sizes: dict | None = None, batch_size: int = 64,
                        n_batches: int = 20, seed: int = 0) -> dict:
    """Model FLOPs per second of real training steps (one thread), and the share of the one-thread GEMM peak.

    The first ``n_batches`` length-bucketed batches of ``train`` (as ``helpers.train`` makes them); FLOPs
    of forward + backward counted by ``torch.utils.flop_counter.FlopCounterMode`` (matrix products;
    element-wise work, clipping and Adam are not counted); time = the whole step, measured on a second
    pass over the same batches.
    """
    import random

    from torch.utils.flop_counter import FlopCounterMode

    from helpers.corpus import load_corpus
    from helpers.decode import pad_sequences
    from helpers.train import BOS, EOS, make_batches, make_model, masked_loss

    with _threads(1):
        model = make_model(variant, seed=seed, **(sizes or {}))
        pairs = load_corpus("train")
        src = [model.src_vocab.encode(p.src) for p in pairs]
        tgt = [[BOS] + model.tgt_vocab.encode(p.tgt) + [EOS] for p in pairs]
        lengths = [len(a) * 1000 + len(b) for a, b in zip(src, tgt)]
        batches = make_batches(lengths, batch_size, random.Random(seed))[:n_batches]
        data = [(*pad_sequences([src[i] for i in b]), pad_sequences([tgt[i] for i in b])[0]) for b in batches]
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)

        def step(s, lens, t):
            logits, _ = model(s, lens, t[:, :-1])  # [B, T, V]
            loss = masked_loss(logits, t[:, 1:])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            return loss

        with FlopCounterMode(display=False) as counter:
            for s, lens, t in data:
                step(s, lens, t)
        flops = counter.get_total_flops()
        t0 = time.perf_counter()
        for s, lens, t in data:
            step(s, lens, t)
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
        seconds = time.perf_counter() - t0
        peak = matmul_peak_gflops()
    gflops = flops / seconds / 1e9
    return {"variant": variant, "sizes": sizes or {}, "batches": len(data), "batch_size": batch_size,
            "gflop_per_step": flops / len(data) / 1e9, "step_ms": 1000 * seconds / len(data),
            "train_gflops_per_s": gflops, "cpu_peak_gflops_per_s": peak, "flops_utilisation": gflops / peak,
            "threads": 1}


def measure_decode_speedup(model=None, split: str = "test", n: int | None = None, repeats: int = 3,
                           batch_size: int = 256) -> dict:
    """Batched greedy decoding vs one sentence at a time on the same sentences; returns the ratio."""
    from helpers.checkpoint import load_pretrained
    from helpers.corpus import load_corpus
    from helpers.decode import decode_sentences, greedy_decode, pad_sequences

    model = load_pretrained("luong-general") if model is None else model
    pairs = load_corpus(split)[:n] if n else load_corpus(split)
    src_ids = [model.src_vocab.encode(p.src) for p in pairs]
    singles = [pad_sequences([s]) for s in src_ids]
    t_batched, t_single = [], []
    with torch.inference_mode():
        decode_sentences(model, src_ids[:64], batch_size=batch_size)  # warm-up
        for r in range(repeats):
            order = ("batched", "single") if r % 2 == 0 else ("single", "batched")
            for which in order:
                t0 = time.perf_counter()
                if which == "batched":
                    batched = decode_sentences(model, src_ids, batch_size=batch_size).tokens
                    t_batched.append(time.perf_counter() - t0)
                else:
                    single = [greedy_decode(model, s, lens).tokens[0] for s, lens in singles]
                    t_single.append(time.perf_counter() - t0)
    b, s = statistics.median(t_batched), statistics.median(t_single)
    return {"decode_speedup_batched": s / b, "batched_s": b, "single_s": s, "sentences": len(pairs),
            "sentences_per_s_batched": len(pairs) / b, "sentences_per_s_single": len(pairs) / s,
            "same_output": batched == single, "batch_size": batch_size, "repeats": repeats,
            "model": getattr(model, "name", None), "threads": torch.get_num_threads()}


# --- widget latency -----------------------------------------------------------------------------

def _slider_and_typing_latency(widget, sentences: list[str], n_steps: int) -> dict:
    """Median latency (ms) of a widget with ``.step`` and ``.sentence``: ``n_steps`` slider moves (t = 1 .. T,
    round and round), then one new sentence each from ``sentences``; the widget is already warm."""
    steps = []
    for _ in range(n_steps):
        target = widget.step.value % widget.step.max + 1
        start = time.perf_counter()
        widget.step.value = target
        steps.append(time.perf_counter() - start)
    typing = []
    for text in sentences:
        start = time.perf_counter()
        widget.sentence.value = text
        typing.append(time.perf_counter() - start)
    return {
        "step_median_ms": 1000 * statistics.median(steps),
        "sentence_median_ms": 1000 * statistics.median(typing),
        "n_steps": len(steps),
        "n_sentences": len(typing),
        "errors": widget.message.value if "color:#b00" in widget.message.value else "",
    }


def measure_explorer_latency(n_steps: int = 30, n_sentences: int = 10, compact: bool = False) -> dict:
    """Median latency (ms) of the explorer: a step-slider change -> new PNG, and a new sentence
    (translate + draw) -> new PNG, measured in one run on fresh test sentences (no cache hits)."""
    from helpers.corpus import load_corpus
    from helpers.widgets.explorer import AttentionExplorer, sentence_text

    widget = AttentionExplorer(compact=compact)
    sentences = [sentence_text(p.src) for p in load_corpus("test") if 6 <= len(p.src) <= 14][: n_sentences + 1]
    widget.sentence.value = sentences[0]  # warm-up (model loaded, fonts cached)
    return _slider_and_typing_latency(widget, sentences[1:], n_steps)


def measure_step_through_latency(n_steps: int = 30, n_sentences: int = 10) -> dict:
    """Median latency (ms) of notebook 05's StepThrough: a step-slider change -> new PNG, and a new
    sentence (trace every step + draw) -> new PNG, on fresh test sentences (no cache hits)."""
    from helpers.corpus import load_corpus
    from helpers.widgets.explorer import sentence_text
    from helpers.widgets.step import StepThrough

    sentences = [sentence_text(p.src) for p in load_corpus("test") if 6 <= len(p.src) <= 14][: n_sentences + 1]
    widget = StepThrough(sentences[0])  # warm-up: model loaded, fonts cached, first background drawn
    return _slider_and_typing_latency(widget, sentences[1:], n_steps)


def step_through_figures(quick: bool, explorer_step_ms: float) -> dict:
    """The StepThrough rows of the table, with its ratio to the explorer measured just before."""
    lat = measure_step_through_latency(n_steps=10 if quick else 30, n_sentences=5 if quick else 10)
    return {"step_through_latency_ms_median": lat["step_median_ms"],
            "step_through_sentence_ms_median": lat["sentence_median_ms"],
            "step_through_vs_explorer": lat["step_median_ms"] / explorer_step_ms}


def step_through_rows(r: dict, fmt) -> list[tuple[str, str, str]]:
    return [
        ("StepThrough (05) step slider → new PNG (median)", fmt(r["step_through_latency_ms_median"], " ms"),
         GOALS["step_through_latency_ms_median"]),
        ("  StepThrough ÷ explorer, step slider (same run)", fmt(r["step_through_vs_explorer"], "×"), ""),
        ("StepThrough (05) new sentence → new PNG (median)", fmt(r["step_through_sentence_ms_median"], " ms"), ""),
    ]


# --- torch threads: 1 vs all cores, idle and loaded ------------------------------------------------

def _burn(stop_at: float) -> None:  # a busy core, as another program on a student's laptop would make
    x = 0
    while time.time() < stop_at:
        x += 1


def _steps_per_s(threads: int, seconds: float, variant: str = "luong-general") -> float:
    """Training steps per second of the default notebook model with ``threads`` torch threads."""
    from helpers.corpus import load_corpus
    from helpers.train import make_model, train

    model = make_model(variant, seed=0)
    hist = train(model, load_corpus("train")[:4000], False, seconds=seconds, progress=False, device="cpu",
                 threads=threads, lr_schedule="constant")
    return hist.steps / hist.wall_time


def _cpu_times():
    """(per-core busy jiffies, per-core total jiffies, this process's CPU jiffies incl. children) or None."""
    try:
        rows = [line.split() for line in Path("/proc/stat").read_text().splitlines()
                if line.startswith("cpu") and line[3:4].isdigit()]
        busy = [sum(int(x) for x in r[1:]) - int(r[4]) - int(r[5]) for r in rows]  # minus idle and iowait
        total = [sum(int(x) for x in r[1:]) for r in rows]
        mine = sum(int(x) for x in Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[11:15])
        return busy, total, mine
    except (OSError, ValueError, IndexError):
        return None


def other_load(before, after) -> float | None:
    """Cores' worth of CPU that other processes used between two ``_cpu_times`` samples (None: unknown)."""
    if before is None or after is None:
        return None
    busy = sum(a - b for a, b in zip(after[0], before[0]))
    span = sum(a - b for a, b in zip(after[1], before[1])) / max(len(after[1]), 1)  # jiffies per core
    return max(0.0, (busy - (after[2] - before[2])) / span) if span > 0 else None


def idle_check(seconds: float = 1.0) -> float | None:
    """Cores' worth of CPU that other processes use right now (sampled over ``seconds``; None: unknown)."""
    before = _cpu_times()
    time.sleep(seconds)
    return other_load(before, _cpu_times())


IDLE_LIMIT = 0.2  # other processes may use at most 0.2 of a core for the "idle" row to count as idle


def measure_thread_scaling(seconds: float = 8.0, busy: int | None = None) -> dict:
    """Steps/s of live training with 1 thread and with one thread per core, on idle and on loaded cores.

    "Idle" is checked, not assumed: ``/proc/stat`` is sampled for a second before and over the whole idle
    measurement, and the CPU that other processes used (in cores) is reported as ``idle_other_load_before``
    / ``idle_other_load_during``; ``idle_verified`` is True when both stay under ``IDLE_LIMIT``, False when
    they do not, None where ``/proc/stat`` cannot be read (not Linux). "Loaded" starts ``busy`` (default:
    all cores) processes that spin for the whole measurement, as a browser or a video call would on a
    student's laptop. This is the measurement behind ``helpers.train.TRAIN_THREADS``.
    """
    import multiprocessing as mp

    n = os.cpu_count() or 1
    busy = n if busy is None else busy
    out = {"cores": n, "busy_processes": busy, "seconds": seconds}
    out["idle_other_load_before"] = idle_check()
    sample = _cpu_times()
    for load in ("idle", "loaded"):
        if load == "loaded":
            out["idle_other_load_during"] = other_load(sample, _cpu_times())
            loads = (out["idle_other_load_before"], out["idle_other_load_during"])
            out["idle_verified"] = None if None in loads else all(x < IDLE_LIMIT for x in loads)
        procs = []
        if load == "loaded":
            stop_at = time.time() + 2 * seconds + 10
            procs = [mp.Process(target=_burn, args=(stop_at,), daemon=True) for _ in range(busy)]
            for pr in procs:
                pr.start()
        try:
            for threads in (1, n):
                out[f"{load}_{threads}_threads_steps_per_s"] = _steps_per_s(threads, seconds)
        finally:
            for pr in procs:
                pr.terminate()
                pr.join()
    return out


# --- the command ---------------------------------------------------------------------------------

def machine() -> dict:
    """CPU model, cores, torch threads, versions and the date."""
    model = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": model or platform.machine(), "cores": os.cpu_count(), "torch_threads": torch.get_num_threads(),
            "torch": torch.__version__, "python": platform.python_version(),
            "date": datetime.date.today().isoformat()}


def matmul_peak_gflops(n: int = 1024, repeats: int = 5) -> float:
    """A practical CPU peak: the best fp32 GEMM rate torch reaches here (all its threads)."""
    a, b = torch.randn(n, n), torch.randn(n, n)
    a @ b
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - t0)
    return 2 * n**3 / best / 1e9


def notebooks_quick(names: list[str] | None) -> dict:
    from helpers.tools.notebooks import execute_notebook, notebook_paths

    times = {}
    for path in notebook_paths(include_solutions=False):
        if names is None or any(n in path.name for n in names):
            t0 = time.perf_counter()
            execute_notebook(path, quick=True)
            times[path.stem] = round(time.perf_counter() - t0, 1)
    return times


def run(quick: bool) -> dict:
    out: dict = {"machine": machine(), "quick": quick}
    repeats = 3 if quick else 7
    t0 = time.perf_counter()
    gru = measure_train_speedup(repeats=repeats, threads=1)
    lstm = measure_train_speedup(repeats=repeats, threads=1, rnn="lstm")
    out["train_speedup_vectorized_vs_loop"] = gru["speedup"]
    out["train_speedup_lstm"] = lstm["speedup"]
    out["train_tokens_per_s_vectorized"] = gru["vectorised_tokens_per_s"]
    out["train_tokens_per_s_loop"] = gru["loop_tokens_per_s"]
    out["time_to_quality"], out["train_flops"] = {}, {}
    for label, (variant, sizes, batch_size, lr) in trained_models().items():
        out["train_flops"][label] = measure_train_flops(variant, sizes, batch_size, n_batches=10 if quick else 30)
        with _threads(1):
            out["time_to_quality"][label] = measure_time_to_quality(variant=variant, sizes=sizes, batch_size=batch_size,
                                                                    lr=lr, max_seconds=120 if quick else 300)
    out["cpu_peak_gflops_per_s"] = max(r["cpu_peak_gflops_per_s"] for r in out["train_flops"].values())
    from helpers.tools.train_speed import measure_training_paths

    out["train_paths"] = measure_training_paths(n_batches=6 if quick else 20)

    with _threads(1):
        dec = measure_decode_speedup(n=300 if quick else None, repeats=repeats)
    out["decode_speedup_batched"] = dec["decode_speedup_batched"]

    lat = measure_explorer_latency(n_steps=10 if quick else 30, n_sentences=5 if quick else 10)
    out["widget_latency_ms_median"] = lat["step_median_ms"]
    out["widget_translate_ms_median"] = lat["sentence_median_ms"]
    out.update(step_through_figures(quick, lat["step_median_ms"]))

    from helpers import corpus as corpus_module

    t_gen = time.perf_counter()
    corpus_module._generate_fresh(0)  # every split, bypassing both caches
    out["corpus_generation_s"] = time.perf_counter() - t_gen

    thr = measure_thread_scaling(seconds=4.0 if quick else 10.0)
    out["thread_scaling"] = thr
    n = thr["cores"]
    out["threads_1_vs_n_idle"] = thr["idle_1_threads_steps_per_s"] / thr[f"idle_{n}_threads_steps_per_s"]
    out["threads_1_vs_n_loaded"] = thr["loaded_1_threads_steps_per_s"] / thr[f"loaded_{n}_threads_steps_per_s"]

    nbs = notebooks_quick(["00_", "04_"] if quick else None)
    out["notebooks_quick_s"] = nbs
    out["notebooks_quick_total_s"] = round(sum(nbs.values()), 1)
    out["notebooks_quick_scope"] = "00, 04 only (--quick)" if quick else "all main notebooks"
    self_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out["peak_rss_mb"] = max(self_kb, kids_kb) / 1024
    out["bench_wall_s"] = time.perf_counter() - t0
    return out


class _threads:
    def __init__(self, n):
        self.n = n

    def __enter__(self):
        self.before = torch.get_num_threads()
        torch.set_num_threads(self.n)

    def __exit__(self, *exc):
        torch.set_num_threads(self.before)


def table(r: dict) -> str:
    m = r["machine"]

    def fmt(value, unit=""):
        if value is None:
            return "not reached"
        return f"{value:.2f}{unit}" if isinstance(value, float) else f"{value}{unit}"

    ttq = [(f"Time to validation char-BLEU ≥ 0.90, {label}, 1 thread", fmt(t["time_to_quality_s"], " s"),
            GOALS["time_to_quality_s"]) for label, t in r["time_to_quality"].items()]
    util = [(f"FLOPs utilisation, {label}: real training steps, 1 thread",
             f"{100 * f['flops_utilisation']:.1f} % ({f['train_gflops_per_s']:.1f} GFLOP/s)", "")
            for label, f in r["train_flops"].items()]
    thr = r["thread_scaling"]
    verified = thr.get("idle_verified")
    before, during = thr.get("idle_other_load_before"), thr.get("idle_other_load_during")
    if verified is None:
        idle = "idle cores not verified (/proc/stat unreadable)"
    else:
        idle = (f"{'idle cores, verified' if verified else 'cores NOT idle'}: other processes used "
                f"{before:.2f} / {during:.2f} cores before / during")
    rows = [
        ("Training speed-up, vectorised vs step-loop Luong (GRU, 1 thread)", fmt(r["train_speedup_vectorized_vs_loop"], "×"),
         GOALS["train_speedup_vectorized_vs_loop"]),
        ("  same, LSTM", fmt(r["train_speedup_lstm"], "×"), ""),
        *ttq,
        ("Batched vs one-by-one greedy decoding", fmt(r["decode_speedup_batched"], "×"), GOALS["decode_speedup_batched"]),
        ("Explorer step slider → new PNG (median)", fmt(r["widget_latency_ms_median"], " ms"),
         GOALS["widget_latency_ms_median"]),
        ("Explorer new sentence → new PNG (median)", fmt(r["widget_translate_ms_median"], " ms"),
         GOALS["widget_translate_ms_median"]),
        *step_through_rows(r, fmt),
        (f"Notebooks in quick mode, total ({r['notebooks_quick_scope']})", fmt(r["notebooks_quick_total_s"], " s"),
         "< 60 s each"),
        (f"Live training steps/s, 1 thread ÷ {thr['cores']} threads, {idle}",
         fmt(r["threads_1_vs_n_idle"], "×"), "(the price of TRAIN_THREADS = 1 on a quiet machine)"),
        ("  same, every core busy with another process", fmt(r["threads_1_vs_n_loaded"], "×"), "> 1 (why TRAIN_THREADS = 1)"),
        ("Corpus generation, all five splits", fmt(r["corpus_generation_s"], " s"), "a couple of seconds"),
        ("CPU peak, one-thread fp32 GEMM (1024 × 1024)", fmt(r["cpu_peak_gflops_per_s"], " GFLOP/s"), ""),
        *util,
        *train_path_rows(r),
        ("Peak RSS", fmt(r["peak_rss_mb"], " MB"), ""),
    ]
    lines = [f"Machine: {m['cpu']}, {m['cores']} cores, torch {m['torch']} ({m['torch_threads']} threads), "
             f"Python {m['python']}, {m['date']}{' — quick run' if r['quick'] else ''}", "",
             "| figure | measured | goal |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return "\n".join(lines)


def train_path_rows(r: dict) -> list[tuple[str, str, str]]:
    from helpers.tools.train_speed import rows_for_table

    return rows_for_table(r["train_paths"]) if "train_paths" in r else []


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m helpers.tools.bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="fewer repeats, a subset of notebooks (< 3 min)")
    p.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = p.parse_args(argv)
    result = run(args.quick)
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
