"""Machinery shared by the checkers (``helpers.exercises.nb05_code`` and the notebook modules).

A checker runs the student's function on a few fixed test cases (random tensors from a private
generator, plus edge cases), never lets an exception escape, and turns the first failure into a
specific diagnosis in Chinese with the English term. Each case knows its expected output, computed
with plain torch; each exercise supplies a ``diagnose(case, out)`` that names typical mistakes.
Outputs of the wrong kind (complex numbers, integers where weights belong) are named before the
values are compared.

``call_answer(fn, *args)`` is how every checker runs a student's code: under the time limit of
``helpers.exercises.limits``, with whatever it raises (``SystemExit`` included) handed back as a
value. ``read_number`` reads a numeric answer, quoted or not.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from helpers.exercises.limits import TimeLimit, run_limited

NOT_FINISHED = "尚未完成 (not finished yet)"
QUOTES = "'\"“”‘’「」"


def call_answer(fn, *args):
    """``(fn(*args), None)``, or ``(None, exc)`` for whatever the student's code raised.

    Runs under the time limit of ``helpers.exercises.limits``; ``SystemExit``, ``KeyboardInterrupt``
    and the like come back as ``exc`` too. Only ``TimeLimit`` goes on, up to ``check()``.
    """
    try:
        return run_limited(fn, *args), None
    except TimeLimit:
        raise
    except BaseException as exc:  # noqa: BLE001 - an answer may raise anything, SystemExit included
        return None, exc


def exception_text(exc: BaseException, limit: int = 300) -> str:
    """``Type: first line of the message`` of what an answer raised."""
    text = str(exc).strip().splitlines()[0][:limit] if str(exc).strip() else ""
    tip = {
        SystemExit: "（不要在函数里调用 exit() / sys.exit()：用 return 返回结果。）",
        KeyboardInterrupt: "（运行被中断 (interrupted)：再运行一次检查。）",
    }.get(type(exc), "")
    return f"{type(exc).__name__}: {text}{tip}"


@dataclass
class Verdict:
    """What a checker found: passed or not, the diagnosis, and machine-readable details."""

    passed: bool
    message: str
    details: dict = field(default_factory=dict)

    @property
    def unfinished(self) -> bool:
        return self.details.get("kind") == "unfinished"


@dataclass
class Case:
    """One test case: named inputs (in signature order), the expected output, and a description."""

    label: str  # Chinese description, e.g. "有填充 (padding)，被遮住的位置分数最大"
    inputs: dict[str, torch.Tensor]
    expected: torch.Tensor
    shape_label: str  # e.g. "[B, T, S]"

    def args(self) -> list:
        # clones: in-place edits cannot hurt us; a non-tensor input (a function such as an RNN cell) as is
        return [x.clone() if isinstance(x, torch.Tensor) else x for x in self.inputs.values()]


def gen(seed: int) -> torch.Generator:
    """A private generator: checking never disturbs the student's global random state."""
    return torch.Generator().manual_seed(seed)


def randn(g: torch.Generator, *shape: int, scale: float = 1.0) -> torch.Tensor:
    return torch.randn(*shape, generator=g) * scale


def close(a, b, atol: float = 1e-4) -> bool:
    """Same shape and numerically equal (NaN equals NaN)."""
    if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor) or a.shape != b.shape:
        return False
    if a.is_complex() != b.is_complex():
        return False
    return bool(torch.allclose(a.double(), b.double(), atol=atol, rtol=1e-4, equal_nan=True))


def try_close(out: torch.Tensor, make: Callable[[], torch.Tensor]) -> bool:
    """``close(out, make())``, where building the variant may itself fail (shapes that don't fit)."""
    try:
        with torch.no_grad():
            return close(out, make())
    except Exception:
        return False


def fmt(x: torch.Tensor) -> str:
    """A small tensor as a rounded nested list."""
    if x.dtype == torch.bool:
        return str(x.tolist())
    x = x.detach().double()
    return str(torch.round(x * 1000).div(1000).tolist()).replace("nan", "NaN")


def _first_mismatch(out: torch.Tensor, expected: torch.Tensor) -> str:
    """'at [b, t, :] expected … got …' for the first row (last-dim slice) that differs."""
    bad = ~torch.isclose(out.double(), expected.double(), atol=1e-4, rtol=1e-4)
    rows = bad.reshape(-1, bad.shape[-1]).any(-1).nonzero() if out.dim() else bad.reshape(1, 1).nonzero()
    if out.dim() == 0 or len(rows) == 0:
        return f"期望 (expected) {fmt(expected)}，实际 (got) {fmt(out)}"
    r = int(rows[0])
    index = list(torch.unravel_index(torch.tensor(r), expected.shape[:-1])) if out.dim() > 1 else []
    where = "[" + ", ".join([str(int(i)) for i in index] + [":"]) + "]"
    flat_e, flat_o = expected.reshape(-1, expected.shape[-1]), out.reshape(-1, out.shape[-1])
    return f"位置 (at) {where}：期望 (expected) {fmt(flat_e[r])}，实际 (got) {fmt(flat_o[r])}"


def describe_case(case: Case, out: torch.Tensor | None = None) -> str:
    tensors = {k: v for k, v in case.inputs.items() if isinstance(v, torch.Tensor)}
    shapes = "，".join(f"{k} {list(v.shape)}" for k, v in tensors.items())
    text = f"\n测试用例 (test case)：{case.label}；输入形状 (input shapes)：{shapes}。"
    small = len(tensors) == len(case.inputs) and all(v.numel() <= 24 for v in tensors.values())
    if small:
        text += "\n输入 (inputs)：" + "；".join(f"{k} = {fmt(v)}" for k, v in case.inputs.items())
    if out is not None and out.shape == case.expected.shape:
        text += "\n" + _first_mismatch(out, case.expected)
    return text


def arity_problem(fn, n_args: int, signature: str) -> str | None:
    try:
        inspect.signature(fn).bind(*range(n_args))
    except TypeError:
        try:
            got = str(inspect.signature(fn))
        except (TypeError, ValueError):
            got = "?"
        return f"参数个数不对 (wrong number of arguments)：应为 {signature}，你的函数是 {got}。"
    except ValueError:  # some builtins have no signature: just try to call them
        return None
    return None


def type_problem(out, case: Case) -> str | None:
    if isinstance(out, torch.Tensor):
        return None
    kind = type(out).__name__
    tip = {
        "ndarray": "请全程用 torch 运算（不要转成 numpy），或最后用 torch.from_numpy(...) 转回。",
        "list": "请用 torch 运算直接得到张量，或用 torch.stack(...) 把列表拼成张量。",
        "tuple": "只返回一个张量，不要返回元组 (tuple)。",
        "generator": "你返回的是生成器 (generator)：请用 torch.stack([...]) 得到张量。",
    }.get(kind, "")
    return f"应返回 torch.Tensor，实际返回 (got) {kind}。{tip}"


def dtype_problem(out: torch.Tensor, case: Case, integer_ok: bool) -> str | None:
    """Complex outputs never fit; integer or bool outputs only where ``integer_ok`` (one-hot weights)."""
    if out.is_complex():
        return (f"输出是复数 (complex numbers, {out.dtype})：注意力的计算全在实数 (real numbers) 上进行。"
                "检查是否用了 torch.fft、复数常数 1j 或 .to(torch.complex64)；结果应是浮点张量 (float)。")
    if out.is_floating_point() or integer_ok or not case.expected.is_floating_point():
        return None
    return (f"输出的数据类型是 {out.dtype}（整数或布尔 (integer / bool)），应为浮点数 (float)：这些数值是小数，"
            "取整会丢掉它们。检查是否用了 .long()、.int()、torch.zeros(..., dtype=torch.long) "
            "或整数除法 //；需要时用 .float() 转换。")


def shape_problem(out: torch.Tensor, case: Case) -> str | None:
    want = list(case.expected.shape)
    got = list(out.shape)
    if got == want:
        return None
    msg = f"输出形状应为 {case.shape_label} = {want}，实际为 {got}。"
    if len(got) == len(want) >= 2 and got[:-2] + got[-2:][::-1] == want:
        msg += "最后两维好像对调了 (transposed)：检查矩阵乘法里谁在前、谁转置。"
    return msg


def run_cases(
    answer,
    cases: list[Case],
    signature: str,
    diagnose: Callable[[Case, torch.Tensor], tuple[str, str] | None],
    exception_tip: str = "",
    shape_tip: Callable[[Case, torch.Tensor], str] | None = None,
    integer_ok: bool = False,
) -> Verdict:
    """Run ``answer`` on every case; return a Verdict for the first failure, or a pass."""
    if answer is None:
        return Verdict(
            False, f"{NOT_FINISHED}：请先实现函数 {signature}，再运行检查。", {"kind": "unfinished"}
        )
    if not callable(answer):
        return Verdict(
            False,
            f"请传入一个函数 (a function) {signature}，而不是 {type(answer).__name__} 类型的值 {answer!r:.40}。"
            "例如 check('…', my_fn)，注意不要写成 my_fn(...)。",
            {"kind": "type"},
        )
    problem = arity_problem(answer, len(cases[0].inputs), signature)
    if problem:
        return Verdict(False, problem, {"kind": "arity"})
    for n, case in enumerate(cases, start=1):
        with torch.no_grad():
            out, exc = call_answer(answer, *case.args())
        if exc is not None:
            msg = f"你的函数抛出了异常 (raised an exception): {exception_text(exc)}"
            if exception_tip:
                msg += f"\n{exception_tip}"
            return Verdict(False, msg + describe_case(case), {"kind": "exception", "case": n, "parts": len(cases), "passed_parts": n - 1})
        if out is None:
            return Verdict(
                False,
                f"{NOT_FINISHED}：你的函数返回了 None。请把 `return None` 换成你的计算结果。",
                {"kind": "unfinished"},
            )
        for kind, check in (("type", type_problem), ("shape", shape_problem)):
            problem = check(out, case)
            if problem and kind == "shape" and shape_tip is not None:
                problem += shape_tip(case, out)
            if problem:
                return Verdict(False, problem + describe_case(case), {"kind": kind, "case": n, "parts": len(cases), "passed_parts": n - 1})
        problem = dtype_problem(out, case, integer_ok)
        if problem:
            return Verdict(False, problem + describe_case(case), {"kind": "dtype", "case": n, "parts": len(cases), "passed_parts": n - 1})
        out = out.detach()
        if close(out, case.expected):
            continue
        found = None
        try:
            found = diagnose(case, out)
        except Exception:  # a diagnosis must never hide the verdict
            found = None
        mistake, msg = found or ("wrong_values", "数值不对 (wrong values)：与参考答案不一致。")
        return Verdict(
            False, msg + describe_case(case, out), {"kind": "value", "mistake": mistake, "case": n, "parts": len(cases), "passed_parts": n - 1}
        )
    return Verdict(
        True, f"全部 {len(cases)} 个测试用例通过 (all {len(cases)} cases passed)。", {"kind": "pass"}
    )


# --- probes shared by several exercises --------------------------------------------------------


def nan_probe(out: torch.Tensor) -> tuple[str, str] | None:
    if torch.isnan(out).any():
        return "nan", "出现了 NaN (not a number)：检查是否有 0/0、-inf - (-inf) 或 log(0)。"
    return None


def scale_probe(out: torch.Tensor, expected: torch.Tensor, hint: str = "") -> tuple[str, str] | None:
    """The output is the right answer times a constant ≠ 1."""
    if not torch.isfinite(out).all():
        return None
    e, o = expected.double().flatten(), out.double().flatten()
    denom = float(e @ e)
    if denom == 0:
        return None
    c = float(o @ e) / denom
    if abs(c - 1) > 1e-3 and close(out, expected * c):
        root = next((n for n in range(2, 1025) if abs(c * n**0.5 - 1) < 1e-4), None)
        as_root = f"（= 1/√{root}）" if root else ""
        return (
            "scaling",
            f"多余的缩放 (scaling where none belongs)：你的结果是正确答案的 {c:.4g} 倍{as_root}。{hint}",
        )
    return None


def _strip_quotes(text: str) -> str:
    text = text.strip()
    while len(text) >= 2 and text[0] in QUOTES and text[-1] in QUOTES:
        text = text[1:-1].strip()
    return text


def _is_complex(answer) -> bool:
    if isinstance(answer, complex):
        return True
    if isinstance(answer, torch.Tensor):
        return answer.is_complex()
    kind = getattr(getattr(answer, "dtype", None), "kind", None)  # numpy scalars and arrays
    return kind == "c"


def _size(answer) -> int:
    try:
        return int(answer.numel()) if isinstance(answer, torch.Tensor) else len(answer)
    except Exception:  # noqa: BLE001 - no length: a single thing
        return 1


def read_number(answer, unfinished: str, vector_tip: str = "") -> tuple[float | None, Verdict | None]:
    """Parse a student's numeric answer: ``(value, None)``, or ``(None, a failing Verdict)`` that says why.

    ``unfinished`` is what to fill in, shown after "尚未完成" when the answer is None. A number
    in a string reads the same as the number itself: ``'0.5'``, ``"0.5"``, ``' 0.5 '``, ``"'0.5'"``.
    ``vector_tip`` is added when the answer holds several numbers.
    """
    if answer is None:
        return None, Verdict(False, f"{NOT_FINISHED}：{unfinished}", {"kind": "unfinished"})
    if isinstance(answer, bool):
        return None, Verdict(False, "请填入一个数 (a number)，而不是 True/False。", {"kind": "type"})
    if isinstance(answer, str):
        answer = _strip_quotes(answer)
    if _is_complex(answer):
        return None, Verdict(False, f"你填的是复数 (a complex number) {answer!r:.40}：这里要一个实数 (a real number)。",
                             {"kind": "type", "mistake": "complex"})
    value, exc = call_answer(float, answer)
    if isinstance(exc, OverflowError):
        return None, Verdict(False, "这是一个数，但太大了 (too large)：它超出了浮点数的范围 (about 1.8e308)。"
                                    "这里的答案都是普通大小的小数，检查是否多写了几位或用了 **。",
                             {"kind": "value", "mistake": "huge"})
    if exc is not None:
        tip = vector_tip if vector_tip and _size(answer) > 1 else ""
        if not tip and _size(answer) > 1 and not isinstance(answer, (str, bytes, dict)):
            tip = "（你填了好几个数：只填一个。）"
        return None, Verdict(False, f"请填入一个数 (a number)，而不是 {type(answer).__name__}。{tip}", {"kind": "type"})
    if value != value or value in (float("inf"), float("-inf")):
        return None, Verdict(False, "你的答案不是有限的数 (NaN / inf)。", {"kind": "value"})
    return value, None
