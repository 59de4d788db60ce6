"""What the reveal cells of the predict-then-run exercises compute (notebooks 01, 02, 06, 07a).

A student predicts first, then runs the reveal cell, which calls one of these. No checker and no
answer key here, and nothing imported from the rest of ``helpers.exercises``: a notebook graded by
``python -m helpers.grading`` runs where the exercises package is a stand-in without the answer key,
and the grader's private copy keeps this one module (``grading.jail.KEEP_IN_EXERCISES``) so that the
reveal cells still run there.

**In a graded kernel a reveal answers only after its exercise's check has recorded an answer**
(``_after_check``): the grader's recorder (``helpers.grading.record``) is installed there, and a reveal
called first raises ``RevealTooEarly`` instead of printing the measurement a prediction is about; once
a reveal has answered, the recorder keeps the answer recorded before it (a later ``check`` of that
exercise changes nothing). Outside grading (a reader running the notebook) the reveals always answer.
The kernel is the student's: this stops the reveal-first shortcut, it does not stop a student who
rewrites the recorder itself (that is not the reveal's job; the grader's verdicts never trust the kernel
for more than the recorded answer).
"""

from __future__ import annotations

import functools
import sys

from helpers.analysis.probes import FIRST_CLAUSES, first_clause_bleu, first_clauses  # noqa: F401 (notebook 01)
from helpers.checkpoint import load_metrics


class RevealTooEarly(RuntimeError):
    """A reveal called, while grading, before its exercise's check(...) recorded an answer."""


def _recorder_state() -> dict | None:
    record = sys.modules.get("helpers.grading.record")
    state = getattr(record, "_STATE", None)
    return state if isinstance(state, dict) and state.get("path") else None


def _after_check(exercise_id: str, when=lambda *args, **kwargs: True):
    """Decorate a reveal: while grading, answer only once ``check(exercise_id, ...)`` has recorded an answer.

    ``when(*args, **kwargs)`` says whether this call reveals that exercise's answer (a call that only
    repeats a number the notebook already printed does not)."""

    def wrap(fn):
        @functools.wraps(fn)
        def reveal(*args, **kwargs):
            state = _recorder_state()
            if state is not None and when(*args, **kwargs):
                if exercise_id not in state.get("answers", {}):
                    raise RevealTooEarly(
                        f"先预测，再揭晓 (predict first)：评分时要先运行 check('{exercise_id}', 你的答案)，"
                        "再运行揭晓的单元格 (run the check before the reveal cell)。")
                state.setdefault("revealed", set()).add(exercise_id)
            return fn(*args, **kwargs)

        reveal.reveals = exercise_id
        return reveal

    return wrap


# --------------------------------------------------------------------------- notebook 02: the spotlight
RADIUS = 0.14  # the spotlight of section 2
HARD, SOFT = 1e-6, 0.02  # edge widths: a hard disc, and the soft edge the notebook draws
STEP = 1e-5  # how far the centre moves, in widths of the picture
NARROW = 0.03  # a narrow spotlight: still soft (exercise 1 of notebook 02)


def _slope_exercise(softness: float, step: float = STEP, radius: float = RADIUS) -> str | None:
    if softness < SOFT:
        return "nb02_hard_gradient"  # the prediction: a hard edge's slope
    if radius < RADIUS:
        return "nb02_narrow_soft"  # the narrow spotlight: still soft?
    return None


def _gated_slope(fn):
    """``egret_share_slope`` reveals two exercises, depending on its arguments."""
    hard = _after_check("nb02_hard_gradient", lambda *a, **k: _slope_exercise(*a, **k) == "nb02_hard_gradient")(fn)
    return _after_check("nb02_narrow_soft", lambda *a, **k: _slope_exercise(*a, **k) == "nb02_narrow_soft")(hard)


@_gated_slope
def egret_share_slope(softness: float, step: float = STEP, radius: float = RADIUS) -> float:
    """d(share of the egret)/dx of the spotlight centre, by a central difference of ``step`` widths."""
    from helpers.viz.teaching import EGRET_XY, lake_scene, spotlight_weights

    scene = lake_scene()
    egret = scene.min(axis=2) > 0.85
    x, y = EGRET_XY

    def share(cx):
        return float(spotlight_weights(scene.shape, cx, y, radius, softness=softness)[egret].sum())

    return (share(x + step) - share(x - step)) / (2 * step)


# --------------------------------------------------------------------------- notebook 06: AER by split
ATTENTION_MODELS = ("bahdanau", "luong-dot", "luong-general", "luong-concat")
_AER: dict = {}


@_after_check("nb06_best_aer", lambda split: split != "test")  # test: the table the notebook already shows
def split_aers(split: str) -> dict[str, float]:
    """Teacher-forced corpus AER of each shipped attention model on ``split`` (as metrics.json does for test)."""
    record = (load_metrics(missing_ok=True) or {}).get("models", {})
    if split == "test" and all(record.get(n, {}).get("test", {}).get("aer") is not None for n in ATTENTION_MODELS):
        return {name: float(record[name]["test"]["aer"]) for name in ATTENTION_MODELS}  # the same computation, stored
    if split not in _AER:
        from helpers.checkpoint import load_pretrained
        from helpers.corpus import load_corpus
        from helpers.metrics import corpus_aer
        from helpers.tools.evaluate import teacher_forced_attention

        pairs = load_corpus(split)
        _AER[split] = {name: float(corpus_aer(teacher_forced_attention(load_pretrained(name), pairs),
                                              [p.sure for p in pairs], [p.possible for p in pairs]))
                       for name in ATTENTION_MODELS}
    return _AER[split]


# --------------------------------------------------------------------------- notebook 07a: AER on a split
AER_READING_MODEL = "luong-general"
SAME_AER = 0.03  # novel and test AER closer than this count as "about the same"
_SPLIT_AER: dict = {}


@_after_check("nb07_aer_reading", lambda split, lengths=None: split != "test")
def split_aer(split: str, lengths: tuple[int, int] | None = None) -> float:
    """Corpus AER of luong-general on ``split``: greedy outputs equal to the reference, arg-max links.

    ``lengths=(lo, hi)`` keeps only the pairs of ``lo`` to ``hi`` English tokens (both included)."""
    key = (split, lengths)
    if key not in _SPLIT_AER:
        from helpers.checkpoint import load_pretrained
        from helpers.corpus import load_corpus
        from helpers.decode import decode_sentences
        from helpers.metrics import attention_to_links, corpus_aer

        model = load_pretrained(AER_READING_MODEL)
        pairs = [p for p in load_corpus(split) if lengths is None or lengths[0] <= len(p.src) <= lengths[1]]
        r = decode_sentences(model, [model.src_vocab.encode(p.src) for p in pairs])
        # the gold links belong to ``tgt``: AER only where the output is that phrasing (not another reference)
        ok = [k for k, ids in enumerate(r.tokens) if model.tgt_vocab.decode(ids) == list(pairs[k].tgt)]
        links = [attention_to_links(r.attention[k], n_src=len(pairs[k].src), n_tgt=len(pairs[k].tgt)) for k in ok]
        _SPLIT_AER[key] = round(float(corpus_aer(links, [pairs[k].sure for k in ok], [pairs[k].possible for k in ok])), 4)
    return _SPLIT_AER[key]


def split_lengths(split: str) -> tuple[int, int]:
    """(shortest, longest) English length in tokens of ``split``."""
    from helpers.corpus import load_corpus

    lengths = [len(p.src) for p in load_corpus(split)]
    return min(lengths), max(lengths)


@_after_check("nb07_aer_reading")
def novel_vs_test() -> dict[str, float]:
    """What the reveal cell of exercise 2 prints: the AER on test, on the test pairs as long as novel's, on novel."""
    lengths = split_lengths("novel")
    return {"test": split_aer("test"), "test_same_lengths": split_aer("test", lengths), "novel": split_aer("novel")}


# --------------------------------------------------------------------------- notebook 01: a blind decoder
@_after_check("nb01_blind_s0")
def blind_bleu(name: str = "none", n: int = 200, model=None) -> tuple[float, float]:
    """char-BLEU of ``name`` on the first ``n`` test sentences, as trained and with s_0 set to zeros.

    For the 9.9 model s_0 is the decoder's only view of the source, so the second number shows what the
    decoder writes from its own language knowledge alone. Returns (normal, blind).
    """
    import torch

    import helpers
    from helpers.corpus import load_corpus
    from helpers.train import evaluate_bleu

    model = helpers.load_pretrained(name) if model is None else model
    pairs = load_corpus("test")[:n]
    normal = evaluate_bleu(model, pairs)

    def zero_state(module, inputs, output):
        outputs, state, mask = output
        return outputs, torch.zeros_like(state), mask

    handle = model.encoder.register_forward_hook(zero_state)
    try:
        blind = evaluate_bleu(model, pairs)
    finally:
        handle.remove()
    return normal, blind


# --------------------------------------------------------------------------- notebook 05a: saturation at init
@_after_check("nb05_saturation")
def init_peak_alpha(hidden: int = 128, src_len: int = 12, n: int = 256, seed: int = 0) -> dict[str, float]:
    """Mean largest α of one softmax over ``src_len`` keys, with and without dividing the score by √H.

    "random": query and keys with independent unit-variance components (the assumption behind Eq. (E1));
    "untrained": the first decoding step of an untrained luong-general model (PyTorch's default
    initialisation), whose states are far from unit variance. Keys are "<case> unscaled" / "<case> scaled".
    """
    import math

    import torch

    from helpers.seq2seq import Seq2Seq

    g = torch.Generator().manual_seed(seed)
    q, k = torch.randn(n, 1, hidden, generator=g), torch.randn(n, src_len, hidden, generator=g)
    dots = (q * k).sum(-1)  # [n, S]
    out = {"random unscaled": torch.softmax(dots, -1).max(-1).values.mean().item(),
           "random scaled": torch.softmax(dots / math.sqrt(hidden), -1).max(-1).values.mean().item()}
    src = torch.randint(4, 200, (n, src_len), generator=g)
    for scaled in (False, True):
        torch.manual_seed(seed)
        model = Seq2Seq("luong-general", 200, 200, hidden_size=hidden, bidirectional=True, input_feeding=True,
                        scaled_score=scaled).eval()
        with torch.no_grad():
            state = model.start(src, torch.full((n,), src_len))
            _, weights, _ = model.step(torch.full((n,), 1), state)  # [n, S], the first step (<bos> = 1)
        out["untrained " + ("scaled" if scaled else "unscaled")] = weights.max(-1).values.mean().item()
    return out
