"""Two code exercises of notebook 05 that assemble one whole decoding step from its parts.

* ``luong_step``     Luong et al. (2015) with input feeding: [y_{t-1}; h̃_{t-1}] → RNN → h_t → general
                     score → α_t (Eq. 9-37) → c_t (Eq. 9-38) → h̃_t (Eq. 9-39); the query is the new h_t
* ``bahdanau_step``  Bahdanau et al. (2014): the query is the previous state s_{t-1}: additive score →
                     α_t → c_t → RNN([y_{t-1}; c_t], s_{t-1}) → s_t; the annotations come from a
                     bidirectional encoder, so their size Dk differs from the decoder's H

A step returns three tensors; ``run_step_cases`` checks each one (type, shape, dtype), then the
values, and names the typical mistake: the wrong query, input feeding left out or in the wrong
order, the mask ignored, a missing tanh. The RNN cell is passed in as a function ``cell(x, h)``
that says clearly when ``x`` has the wrong size.
"""

from __future__ import annotations

from functools import cache

import torch

from helpers.decoders import StepCell  # outside helpers.exercises, so the grader's sandbox can unpickle it
from helpers.exercises.engine import (
    NOT_FINISHED,
    Case,
    Verdict,
    arity_problem,
    call_answer,
    close,
    describe_case,
    dtype_problem,
    exception_text,
    gen,
    randn,
    shape_problem,
    type_problem,
)
from helpers.exercises.nb05_code import _lengths_mask, masked_softmax

# --- reference solutions ---------------------------------------------------------------------


def _attend(scores, enc, mask):
    alpha = masked_softmax(scores, mask)  # [B, S]
    return alpha, (alpha.unsqueeze(1) @ enc).squeeze(1)  # [B, S], [B, Dk]


def luong_step(emb, h_tilde_prev, h_prev, enc, mask, cell, W_a, W_c):
    """One Luong step with input feeding; returns (h_t [B, H], h̃_t [B, H], α_t [B, S])."""
    h = cell(torch.cat([emb, h_tilde_prev], dim=-1), h_prev)  # [B, E + H] -> [B, H]
    scores = ((h @ W_a).unsqueeze(1) @ enc.transpose(1, 2)).squeeze(1)  # [B, S]
    alpha, c = _attend(scores, enc, mask)  # [B, S], [B, H]
    h_tilde = torch.tanh(torch.cat([c, h], dim=-1) @ W_c.T)  # [B, 2H] @ [2H, H] -> [B, H]
    return h, h_tilde, alpha


def bahdanau_step(emb, s_prev, enc, mask, cell, W_q, W_k, v_a):
    """One Bahdanau step; returns (s_t [B, H], c_t [B, Dk], α_t [B, S])."""
    scores = torch.tanh((s_prev @ W_q.T).unsqueeze(1) + enc @ W_k.T) @ v_a  # [B, S, A] @ [A] -> [B, S]
    alpha, c = _attend(scores, enc, mask)  # [B, S], [B, Dk]
    s = cell(torch.cat([emb, c], dim=-1), s_prev)  # [B, E + Dk] -> [B, H]
    return s, c, alpha


# --- running a step --------------------------------------------------------------------------


def run_step_cases(answer, cases: list[Case], signature: str, names: tuple[str, ...], shapes: tuple[str, ...],
                   diagnose, exception_tip: str = "") -> Verdict:
    """Like ``run_cases``, for a step that returns a tuple of tensors (``names``, of ``shapes``)."""
    if answer is None:
        return Verdict(False, f"{NOT_FINISHED}：请先实现函数 {signature}，再运行检查。", {"kind": "unfinished"})
    if not callable(answer):
        return Verdict(False, f"请传入一个函数 (a function) {signature}，而不是 {type(answer).__name__}。",
                       {"kind": "type"})
    problem = arity_problem(answer, len(cases[0].inputs), signature)
    if problem:
        return Verdict(False, problem, {"kind": "arity"})
    wanted = f"({', '.join(names)})"
    for n, case in enumerate(cases, start=1):
        with torch.no_grad():
            out, exc = call_answer(answer, *case.args())
        if exc is not None:
            tip = f"\n{exception_tip}" if exception_tip else ""
            return Verdict(False, f"你的函数抛出了异常 (raised an exception): {exception_text(exc)}{tip}"
                                  + describe_case(case), {"kind": "exception", "case": n})
        if out is None:
            return Verdict(False, f"{NOT_FINISHED}：你的函数返回了 None。请返回 {wanted}。", {"kind": "unfinished"})
        if not isinstance(out, (tuple, list)) or len(out) != len(names):
            got = f"{len(out)} 个值" if isinstance(out, (tuple, list)) else type(out).__name__
            return Verdict(False, f"应返回 {len(names)} 个张量组成的元组 {wanted}，实际返回 (got) {got}。"
                           + describe_case(case), {"kind": "type", "case": n})
        parts = [Case(case.label, case.inputs, e, s) for e, s in zip(case.expected, shapes)]
        for name, part, value in zip(names, parts, out):
            problem = type_problem(value, part) or shape_problem(value, part) or dtype_problem(value, part, False)
            if problem:
                return Verdict(False, f"返回值 {name}：{problem}" + describe_case(case), {"kind": "type", "case": n})
        out = tuple(v.detach() for v in out)
        if all(close(v, e) for v, e in zip(out, case.expected)):
            continue
        try:
            found = diagnose(case, out)
        except Exception:  # noqa: BLE001 - a diagnosis must never hide the verdict
            found = None
        first = next(i for i, (v, e) in enumerate(zip(out, case.expected)) if not close(v, e))
        mistake, msg = found or ("wrong_values", f"返回值 {names[first]} 数值不对 (wrong values)：与参考答案不一致。")
        return Verdict(False, msg + describe_case(parts[first], out[first]),
                       {"kind": "value", "mistake": mistake, "case": n})
    return Verdict(True, f"全部 {len(cases)} 个测试用例通过 (all {len(cases)} cases passed)。", {"kind": "pass"})


def _matches(out, make) -> bool:
    try:
        with torch.no_grad():
            return all(close(v, e) for v, e in zip(out, make()))
    except Exception:  # noqa: BLE001 - a variant that does not fit these shapes
        return False


# --- luong_step ------------------------------------------------------------------------------

LUONG_NAMES, LUONG_SHAPES = ("h_t", "h̃_t", "α_t"), ("[B, H]", "[B, H]", "[B, S]")


@cache
def _luong_cases() -> list[Case]:
    g = gen(808)
    out = []
    for label, (b, s, e, h, lengths) in (
        ("有填充 (padding)，B=2, S=5, E=3, H=4", (2, 5, 3, 4, [5, 3])),
        ("batch 为 1，无填充，S=3, E=2, H=3", (1, 3, 2, 3, [3])),
    ):
        inputs = {"emb": randn(g, b, e), "h_tilde_prev": randn(g, b, h), "h_prev": randn(g, b, h),
                  "enc": randn(g, b, s, h, scale=2.0), "mask": _lengths_mask(lengths, s),
                  "cell": StepCell(808 + h, e + h, h, "[y_{t-1} 的词向量; h̃_{t-1}]"),
                  "W_a": randn(g, h, h), "W_c": randn(g, h, 2 * h)}
        out.append(Case(label, inputs, luong_step(*inputs.values()), "(h_t, h̃_t, α_t)"))
    return out


def _luong_variant(emb, ht, hp, enc, mask, cell, W_a, W_c, *, feed="emb_first", query="h_t", masked=True,
                   concat="c_first", act=torch.tanh):
    x = {"emb_first": [emb, ht], "h_tilde_first": [ht, emb], "zeros": [emb, torch.zeros_like(ht)]}[feed]
    h = cell(torch.cat(x, dim=-1), hp)  # [B, H]
    q = h if query == "h_t" else hp
    scores = ((q @ W_a).unsqueeze(1) @ enc.transpose(1, 2)).squeeze(1)  # [B, S]
    alpha, c = _attend(scores, enc, mask if masked else torch.ones_like(mask))
    h_tilde = act(torch.cat([c, h] if concat == "c_first" else [h, c], dim=-1) @ W_c.T)
    return h, h_tilde, alpha


_LUONG_MISTAKES = [
    ({"query": "h_prev"}, "wrong_query", "查询 (query) 用错了：Luong 先更新状态、再做注意力，查询是这一步的新状态 h_t；"
                                         "用上一步的状态 h_{t-1} 作查询是 Bahdanau 的做法。"),
    ({"feed": "h_tilde_first"}, "feed_order", "输入馈送 (input feeding) 的拼接顺序反了：RNN 的输入是 "
                                              "[y_{t-1} 的词向量; h̃_{t-1}]，词向量在前。"),
    ({"feed": "zeros"}, "no_input_feeding", "没有用上 h̃_{t-1}（input feeding）：上一步的注意力向量要和词向量拼接后送进 RNN。"),
    ({"masked": False}, "mask_ignored", "没有使用掩码 (mask ignored)：填充位置得到了注意力权重。"),
    ({"concat": "h_first"}, "concat_order", "式 (9-39) 的拼接顺序应为 [c_t; h_t]：上下文向量在前。"),
    ({"act": lambda x: x}, "missing_tanh", "缺少 tanh (missing tanh)：注意力向量 h̃_t 要经过 tanh，见式 (9-39)。"),
]


def _diagnose_luong(case: Case, out):
    args = list(case.inputs.values())
    for change, mistake, msg in _LUONG_MISTAKES:
        if _matches(out, lambda change=change: _luong_variant(*args, **change)):
            return mistake, msg
    h, h_tilde, alpha = case.expected
    if close(out[0], h_tilde) and close(out[1], h):
        return "order", "返回顺序不对：应返回 (h_t, h̃_t, α_t)，先状态、再注意力向量。"
    return None


def check_luong_step(answer) -> Verdict:
    tip = ("提示：RNN 单元 cell 的输入是词向量和 h̃_{t-1} 拼接后的 [B, E + H]（输入馈送 input feeding）；"
           "一次一个查询时，α_t [B, S] 用 unsqueeze(1) 变成 [B, 1, S] 再和 enc [B, S, H] 相乘。")
    return run_step_cases(answer, _luong_cases(), "fn(emb, h_tilde_prev, h_prev, enc, mask, cell, W_a, W_c)",
                          LUONG_NAMES, LUONG_SHAPES, _diagnose_luong, tip)


# --- bahdanau_step ---------------------------------------------------------------------------

BAHDANAU_NAMES, BAHDANAU_SHAPES = ("s_t", "c_t", "α_t"), ("[B, H]", "[B, Dk]", "[B, S]")


@cache
def _bahdanau_cases() -> list[Case]:
    g = gen(909)
    out = []
    for label, (b, s, e, h, dk, a, lengths) in (
        ("有填充 (padding)，B=2, S=5, E=3, H=4, Dk=6, A=5", (2, 5, 3, 4, 6, 5, [5, 2])),
        ("batch 为 1，无填充，S=3, E=2, H=3, Dk=4, A=2", (1, 3, 2, 3, 4, 2, [3])),
    ):
        inputs = {"emb": randn(g, b, e), "s_prev": randn(g, b, h), "enc": randn(g, b, s, dk, scale=2.0),
                  "mask": _lengths_mask(lengths, s), "cell": StepCell(909 + h, e + dk, h, "[y_{t-1} 的词向量; c_t]"),
                  "W_q": randn(g, a, h), "W_k": randn(g, a, dk), "v_a": randn(g, a)}
        out.append(Case(label, inputs, bahdanau_step(*inputs.values()), "(s_t, c_t, α_t)"))
    return out


def _bahdanau_variant(emb, sp, enc, mask, cell, W_q, W_k, v_a, *, masked=True, act=torch.tanh, feed="emb_first",
                      update=True):
    scores = act((sp @ W_q.T).unsqueeze(1) + enc @ W_k.T) @ v_a  # [B, S]
    alpha, c = _attend(scores, enc, mask if masked else torch.ones_like(mask))
    s = cell(torch.cat([emb, c] if feed == "emb_first" else [c, emb], dim=-1), sp) if update else sp
    return s, c, alpha


_BAHDANAU_MISTAKES = [
    ({"masked": False}, "mask_ignored", "没有使用掩码 (mask ignored)：填充位置得到了注意力权重。"),
    ({"act": lambda x: x}, "missing_tanh", "打分缺少 tanh (missing tanh)：加法形式的分数是先相加、再经过 tanh、最后与 v_a 做点积。"),
    ({"feed": "c_first"}, "feed_order", "RNN 输入的拼接顺序反了：应为 [y_{t-1} 的词向量; c_t]，词向量在前。"),
    ({"update": False}, "no_update", "返回的 s_t 还是上一步的 s_{t-1}：最后要把 [词向量; c_t] 送进 cell 得到新状态。"),
]


def _diagnose_bahdanau(case: Case, out):
    args = list(case.inputs.values())
    for change, mistake, msg in _BAHDANAU_MISTAKES:
        if _matches(out, lambda change=change: _bahdanau_variant(*args, **change)):
            return mistake, msg
    if close(out[2], case.expected[2]) and not close(out[0], case.expected[0]):
        return "state", "α_t 和 c_t 对了，新状态 s_t 不对：cell 的输入是 [词向量; c_t]，状态是 s_{t-1}。"
    return None


def check_bahdanau_step(answer) -> Verdict:
    tip = ("提示：Bahdanau 的查询是上一步的状态 s_prev [B, H]：先打分、归一化、求 c_t [B, Dk]，"
           "再把 [emb; c_t]（形状 [B, E + Dk]）送进 cell 得到 s_t。")
    return run_step_cases(answer, _bahdanau_cases(), "fn(emb, s_prev, enc, mask, cell, W_q, W_k, v_a)",
                          BAHDANAU_NAMES, BAHDANAU_SHAPES, _diagnose_bahdanau, tip)
