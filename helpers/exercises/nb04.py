"""Exercises of notebook 04_framework (9.10.3 part 1, Fig. 9-24): retrieval with Query, Keys and Values.

* ``nb04_soft_retrieve``   (code) ``soft_retrieve(query_vec, keys, values, temperature)``: soft attention,
                           α = softmax(K q / τ), returns Σ_i α_i v_i
* ``nb04_hard_retrieve``   (code) ``hard_retrieve(query_vec, keys, values)``: hard attention, returns the
                           Value of the best-matching Key (ties -> the first index)
* ``nb04_predict_video``   (prediction) which video the query “湖边 小狗 游泳” returns as τ -> 0
* ``nb04_tie_alpha``       (reading) α of 《钢琴入门教程》 for the query “入门” at τ = 0.01 (a tie)

Inputs of the code exercises are numpy arrays: query_vec [D], keys [N, D], values [N, Dv].
"""

from __future__ import annotations

import numpy as np

from helpers.exercises import Exercise, register
from helpers.exercises.engine import NOT_FINISHED, Verdict, call_answer, exception_text
from helpers.exercises.kinds import choice_answer, expect_function, near, number_answer, percent
from helpers.exercises.nb02 import numeric_array

_NB = "04_framework"
# The toy video site (helpers.widgets.toys) pulls in ipywidgets and matplotlib: imported lazily, so that
# ``import helpers.exercises`` stays fast.
_N_VIDEOS = 6
_TITLES = {"可爱猫咪学钢琴": 0, "小狗学游泳": 1, "湖边白鹭捕鱼": 2, "注意力入门教程": 3, "机器翻译实战": 4, "钢琴入门教程": 5}


# --------------------------------------------------------------------------- shared machinery
def _softmax(z):
    z = np.asarray(z, dtype=float)
    e = np.exp(z - z.max())
    return e / e.sum()


def _fmt(a) -> str:
    return str(np.round(np.asarray(a, dtype=float), 3).tolist()).replace("nan", "NaN")


def _toy():
    from helpers.widgets import toys as widgets_toys

    return widgets_toys


def _query(text: str) -> np.ndarray:
    toy = _toy()
    return toy.bag_of_words(toy.tokenize_query(text)[0])  # [V]


def _describe(label, inputs: dict, expected=None, got=None) -> str:
    shapes = "，".join(f"{k} {list(np.shape(v))}" for k, v in inputs.items())
    text = f"\n测试用例 (test case)：{label}；输入形状 (input shapes)：{shapes}。"
    small = all(np.size(v) <= 24 for v in inputs.values())
    if small:
        text += "\n输入 (inputs)：" + "；".join(f"{k} = {_fmt(v)}" for k, v in inputs.items())
    if expected is not None and got is not None and np.shape(expected) == np.shape(got):
        text += f"\n期望 (expected) {_fmt(expected)}，实际 (got) {_fmt(got)}"
    return text


def _run(answer, signature: str, exercise_id: str, cases, diagnose) -> Verdict:
    """Run ``answer`` on every case (label, inputs, expected); the first failure becomes the verdict."""
    problem = expect_function(answer, signature, exercise_id)
    if problem:
        return problem
    n = 0
    for n, (label, inputs, expected) in enumerate(cases, start=1):
        with np.errstate(all="ignore"):
            out, exc = call_answer(answer, *[np.array(v, copy=True) for v in inputs.values()])
        if exc is not None:
            return Verdict(False, f"你的函数抛出了异常 (raised an exception): {exception_text(exc, 200)}"
                                  + _describe(label, inputs), {"kind": "exception", "case": n})
        if out is None:
            return Verdict(False, f"{NOT_FINISHED}：你的函数返回了 None。请把 `return None` 换成你的结果。",
                           {"kind": "unfinished"})
        if isinstance(out, (bool, int, np.integer)):
            return Verdict(False, f"你返回的是一个下标 (an index) {out!r}，应返回取回的内容——值 (Value) 向量，"
                                  "形状 [Dv]：values[下标]。" + _describe(label, inputs),
                           {"kind": "type", "mistake": "index", "case": n})
        if isinstance(out, (str, bytes, dict, set, tuple)) or callable(out):
            tip = "只返回一个数组，不要返回元组 (tuple)。" if isinstance(out, tuple) else ""
            return Verdict(False, f"应返回一个一维数组 [Dv] (a 1-D array)，实际返回 (got) {type(out).__name__}。{tip}"
                                  + _describe(label, inputs), {"kind": "type", "case": n})
        arr, exc = call_answer(numeric_array, out)
        if exc is not None:
            return Verdict(False, f"返回值无法转成数值数组 (cannot be converted to a numeric array)：{type(out).__name__}。"
                                  + _describe(label, inputs), {"kind": "type", "case": n})
        if arr is None:
            return Verdict(False, "返回的是复数 (complex numbers)：检索的权重和值都是实数 (real numbers)，请不要用复数运算。"
                                  + _describe(label, inputs), {"kind": "dtype", "case": n})
        if arr.shape == expected.shape and np.allclose(arr, expected, atol=1e-6, rtol=1e-5):
            continue
        try:
            found = diagnose(inputs, arr, expected)
        except Exception:
            found = None
        mistake, msg = found or ("wrong_values", "数值不对 (wrong values)：与参考答案不一致。")
        if arr.shape != expected.shape and mistake == "wrong_values":
            mistake, msg = "shape", f"输出形状应为 [Dv] = {list(expected.shape)}，实际为 {list(arr.shape)}。"
        return Verdict(False, msg + _describe(label, inputs, expected, arr),
                       {"kind": "value", "mistake": mistake, "case": n})
    return Verdict(True, f"全部 {n} 个测试用例通过 (all {n} cases passed)。", {"kind": "pass"})


def _same(out, candidate) -> bool:
    candidate = np.asarray(candidate, dtype=float)
    return out.shape == candidate.shape and bool(np.allclose(out, candidate, atol=1e-6, rtol=1e-5, equal_nan=True))


# --------------------------------------------------------------------------- nb04_soft_retrieve
def soft_retrieve(query_vec, keys, values, temperature):
    """Reference: s = K q [N], α = softmax(s / τ) [N] (max subtracted first), returns α @ values [Dv]."""
    scores = keys @ query_vec  # [N]
    z = scores / temperature
    e = np.exp(z - z.max())
    alpha = e / e.sum()  # [N]
    return alpha @ values  # [Dv]


def _soft_cases():
    """(label, inputs, expected); N, D and Dv differ in every random case so axis mistakes show."""
    K, V = _toy().key_matrix(), _toy().value_matrix()
    yield "视频网站：查询“钢琴 入门”，τ = 1", {"query_vec": _query("钢琴 入门"), "keys": K, "values": V,
                                          "temperature": np.float64(1.0)}
    rng = np.random.default_rng(4)
    for N, D, Dv, tau in [(5, 3, 2, 0.5), (4, 6, 3, 2.0)]:
        inputs = {"query_vec": rng.normal(size=D).round(2), "keys": rng.normal(size=(N, D)).round(2),
                  "values": rng.normal(size=(N, Dv)).round(2), "temperature": np.float64(tau)}
        yield f"随机用例 (random case)，τ = {tau}", inputs
    inputs = {"query_vec": np.array([30.0, -20.0, 10.0]), "keys": rng.normal(size=(4, 3)).round(1) * 10,
              "values": rng.normal(size=(4, 2)).round(2), "temperature": np.float64(0.5)}
    yield "相似度很大（几百），直接 exp 会溢出 (overflow)", inputs
    yield "只有一个键 (N = 1)", {"query_vec": np.array([1.0, 2.0]), "keys": np.array([[0.5, -1.0]]),
                                "values": np.array([[3.0, -1.0, 2.0]]), "temperature": np.float64(1.0)}
    yield "视频网站：查询“入门”，两个标题并列 (tie)，τ = 0.3", {
        "query_vec": _query("入门"), "keys": K, "values": V, "temperature": np.float64(0.3)}


def _soft_case_list():
    return [(label, inputs, soft_retrieve(*inputs.values())) for label, inputs in _soft_cases()]


def _soft_diagnose(inputs, out, expected):
    q, K, V, tau = inputs.values()
    s = K @ q  # [N]
    alpha = _softmax(s / tau)
    if np.isnan(out).any() or np.isinf(out).any():
        if np.abs(s / tau).max() > 700:
            return ("overflow", "出现了 NaN 或 inf：相似度很大时 np.exp(s / τ) 会溢出 (overflow)，inf / inf = NaN。"
                                "先减去最大值再取指数：np.exp(z - z.max())，softmax 的结果不变。")
        return "nan", "出现了 NaN (not a number)：检查是否有 0/0 或 inf/inf。"
    if out.shape == s.shape and _same(out, alpha):
        return "alpha", ("你返回的是注意力权重 α，而不是加权后的值 (returned α instead of the weighted Values)："
                         "最后还要 α @ values。")
    if out.shape == V.shape and _same(out, alpha[:, None] * V):
        return "no_sum", "你返回的是每个值乘以权重 α_i v_i，还没有对 N 个视频求和 (sum over N)：用 α @ values。"
    if out.shape == (V.shape[0],):
        return "wrong_axis", (f"求和的轴不对 (wrong axis)：输出形状应为 [Dv] = [{V.shape[1]}]，你得到 [{V.shape[0]}]。"
                              "要对 N 个视频（axis=0）求和，而不是对特征维。")
    if out.shape != expected.shape:
        return "shape", f"输出形状应为 [Dv] = {list(expected.shape)}，实际为 {list(out.shape)}。"
    variants = [
        ("no_softmax", s @ V, "缺少 softmax (softmax missing)：相似度 s 还不是一份分配，要先 softmax(s / τ) 得到 α，"
                              "再 α @ values。"),
        ("temperature_multiplied", _softmax(s * tau) @ V,
         "温度 τ 用反了 (temperature multiplied instead of divided)：应当是 softmax(s / τ)，不是 s * τ。"),
        ("temperature_ignored", _softmax(s) @ V, "温度 τ 没有用上 (temperature ignored)：应当是 softmax(s / τ)。"),
        ("sum_normalised", (s / tau) / (s / tau).sum() @ V,
         "这不是 softmax：直接除以总和得到的不是 softmax 权重（还可能出现负数）。请先取 exp 再归一化。"),
        ("wrong_axis", V.sum(axis=0),
         "softmax 的轴不对 (softmax over the wrong axis)：所有权重都变成了 1，结果是值的总和。"
         "softmax 要在 N 个视频这一维上做，让 α 加起来为 1。"),
        ("uniform", V.mean(axis=0), "每个视频的权重都相同（结果是值的平均）：α 应由查询和键的相似度决定。"),
        ("argmax", V[int(np.argmax(s))], "这是硬注意力 (hard attention) 的结果：软注意力要返回所有值的加权和。"),
        ("keys", alpha @ K if K.shape[1] == V.shape[1] else None,
         "你把键 (Keys) 加权求和了：要取回的是值 (Values)。"),
    ]
    for mistake, candidate, message in variants:
        if candidate is not None and _same(out, candidate):
            return mistake, message
    with np.errstate(all="ignore"):
        unnormalised = np.exp(s / tau) @ V
    if np.isfinite(unnormalised).all() and _same(out, unnormalised):
        return "not_normalised", ("权重没有归一化 (weights do not sum to 1)：exp(s / τ) 之后还要除以它们的总和，"
                                  "α = e / e.sum()。")
    e, o = expected.ravel(), out.ravel()
    if float(e @ e) > 0:
        c = float(o @ e) / float(e @ e)
        if abs(c - 1) > 1e-3 and _same(out, c * expected):
            return "not_normalised", (f"权重没有归一化 (weights do not sum to 1)：你的结果是正确答案的 {c:.4g} 倍。"
                                      "检查 α 的总和是否为 1。")
    return None


def check_soft_retrieve(answer) -> Verdict:
    return _run(answer, "soft_retrieve(query_vec, keys, values, temperature)", "nb04_soft_retrieve",
                _soft_case_list(), _soft_diagnose)


register(Exercise(
    id="nb04_soft_retrieve",
    notebook=_NB,
    title="代码：软注意力检索 (soft retrieval)",
    prompt="实现 soft_retrieve(query_vec, keys, values, temperature)：query_vec [D]，keys [N, D]，values [N, Dv]"
           "（numpy 数组），temperature τ > 0。相似度 s = keys @ query_vec [N]，α = softmax(s / τ) [N]，"
           "返回 Σ_i α_i v_i，形状 [Dv]。相似度可能很大：不能出现溢出 (overflow) 和 NaN。",
    solution=soft_retrieve,
    checker=check_soft_retrieve,
    hints=["三步：相似度 s = keys @ query_vec（形状 [N]）→ α = softmax(s / τ) → 返回 α @ values（形状 [Dv]）。",
           "softmax 自己写：z = s / temperature；e = np.exp(z - z.max())；alpha = e / e.sum()。减去最大值可以防止溢出。",
           "温度是除 (divide) 不是乘；最后返回 alpha @ values，而不是 alpha。"],
))


# --------------------------------------------------------------------------- nb04_hard_retrieve
def hard_retrieve(query_vec, keys, values):
    """Reference: the Value whose Key has the largest score s = K q; on a tie the first such index."""
    scores = keys @ query_vec  # [N]
    return values[int(np.argmax(scores))]  # [Dv]; np.argmax returns the first maximum


def _hard_cases():
    K, V = _toy().key_matrix(), _toy().value_matrix()
    yield "视频网站：查询“钢琴 入门”", {"query_vec": _query("钢琴 入门"), "keys": K, "values": V}
    yield "视频网站：查询“入门”，两个标题并列最高分 (tie)，取第一个", {"query_vec": _query("入门"), "keys": K, "values": V}
    rng = np.random.default_rng(7)
    for N, D, Dv in [(5, 3, 2), (4, 6, 3)]:
        yield "随机用例 (random case)", {"query_vec": rng.normal(size=D).round(2),
                                        "keys": rng.normal(size=(N, D)).round(2), "values": rng.normal(size=(N, Dv)).round(2)}
    yield "相似度有正有负 (mixed signs)", {
        "query_vec": np.array([1.0, 0.0]), "keys": np.array([[0.5, 1.0], [-3.0, 0.0], [2.0, 1.0], [1.0, 0.0]]),
        "values": np.array([[0.0, 0.5], [1.0, 1.5], [2.0, 2.5], [3.0, 3.5]])}
    yield "所有相似度都是负数 (all scores negative)", {
        "query_vec": np.array([1.0, 1.0]), "keys": np.array([[-1.0, -1.0], [-0.5, -0.5], [-2.0, -2.0]]),
        "values": np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]])}
    yield "并列出现在中间和末尾 (tie at positions 1 and 3)", {
        "query_vec": np.array([1.0, 0.0, 2.0]),
        "keys": np.array([[0.0, 1.0, 0.0], [1.0, 5.0, 1.0], [2.0, 0.0, 0.0], [3.0, 0.0, 0.0]]),
        "values": np.array([[0.0, 0.1], [1.0, 1.1], [2.0, 2.1], [3.0, 3.1]])}
    yield "只有一个键 (N = 1)", {"query_vec": np.array([1.0, 2.0]), "keys": np.array([[0.5, -1.0]]),
                                "values": np.array([[3.0, -1.0, 2.0]])}


def _hard_case_list():
    return [(label, inputs, hard_retrieve(*inputs.values())) for label, inputs in _hard_cases()]


def _hard_diagnose(inputs, out, expected):
    q, K, V = inputs.values()
    s = K @ q  # [N]
    best = int(np.argmax(s))
    ties = np.flatnonzero(s == s[best])
    if out.shape == s.shape and _same(out, np.eye(len(s))[best]):
        return "one_hot", "你返回的是 one-hot 权重 α，而不是取回的值 (the Value)：返回 values[best]。"
    if out.shape == (K.shape[1],) and _same(out, K[best]) and K.shape[1] != V.shape[1]:
        return "keys", "你返回的是键 (Key，标题)，而不是值 (Value，内容)：用 values[best]。"
    if out.shape == V.shape:
        return "all_values", "你返回了全部的值 [N, Dv]：硬注意力只取回一个值 values[best]，形状 [Dv]。"
    if out.shape != expected.shape:
        return "shape", f"输出形状应为 [Dv] = {list(expected.shape)}，实际为 {list(out.shape)}。"
    if len(ties) > 1 and any(_same(out, V[i]) for i in ties[1:]):
        return "tie_last", ("并列最高分 (tie) 时应取第一个 (the first index)：np.argmax 正是这样做的；"
                            "自己写循环时用 >，不要用 >=。")
    if (s < 0).all() and _same(out, V[0]):
        return "negative", ("所有相似度都是负数时你返回了第 0 个：循环里的“当前最大值”不要从 0 开始，"
                            "用 -np.inf 或直接 np.argmax。")
    if _same(out, V[int(np.argmin(s))]):
        return "argmin", ("你取的是相似度最小的那个 (arg-min)，或者比较了相似度的绝对值 (absolute value)："
                          "应直接对 s 取最大值 (arg-max)，负的相似度表示“不像”。")
    if _same(out, _softmax(s) @ V):
        return "soft", "这是软注意力 (soft attention) 的加权和：硬注意力只返回一个值 values[best]。"
    if _same(out, V[int(np.argmax(V @ np.ones(V.shape[1])))]) or _same(out, V[int(np.argmax(K.sum(axis=1)))]):
        return "no_query", "结果和查询 (Query) 无关：相似度是 s = keys @ query_vec，要对它取 arg-max。"
    return None


def check_hard_retrieve(answer) -> Verdict:
    return _run(answer, "hard_retrieve(query_vec, keys, values)", "nb04_hard_retrieve",
                _hard_case_list(), _hard_diagnose)


register(Exercise(
    id="nb04_hard_retrieve",
    notebook=_NB,
    title="代码：硬注意力检索 (hard retrieval)",
    prompt="实现 hard_retrieve(query_vec, keys, values)：query_vec [D]，keys [N, D]，values [N, Dv]（numpy 数组）。"
           "相似度 s = keys @ query_vec，返回相似度最大的那个键对应的值 values[i]，形状 [Dv]；"
           "有几个并列最大时取下标最小的那一个 (ties -> the first index)。",
    solution=hard_retrieve,
    checker=check_hard_retrieve,
    hints=["先算相似度 s = keys @ query_vec（形状 [N]），硬注意力只看其中最大的一个。",
           "np.argmax(s) 给出最大值的下标；并列时它返回第一个，正好符合要求。",
           "一个小例子 (a worked example)：s = [0.2, 1.5, 1.5, -3] 时 np.argmax(s) = 1（并列取第一个），"
           "所以返回 values[1]：一个形状 [Dv] 的值 (Value)，不是下标 1，也不是 keys[1]。"],
))


# --------------------------------------------------------------------------- nb04_predict_video
PREDICT_QUERY = "湖边 小狗 游泳"


def _video_number(answer) -> Verdict | None:
    """A video's number instead of its title."""
    if isinstance(answer, (int, np.integer)) and not isinstance(answer, bool) and 0 <= int(answer) < _N_VIDEOS:
        title = next(t for t, i in _TITLES.items() if i == int(answer))
        return Verdict(False, f"请填视频的标题（字符串），而不是编号：编号 {int(answer)} 是《{title}》。", {"kind": "type"})
    return None


_NO_MIX = "τ → 0 时 α 不再是混合：它趋向 one-hot，只剩一个视频。"
check_predict_video = choice_answer(
    "小狗学游泳",
    unfinished="请填入一个视频标题（字符串），例如 '机器翻译实战'。",
    example="，例如 '机器翻译实战'",
    before=_video_number,
    passed="正确：“小狗 游泳”两个词都命中《小狗学游泳》（s = 2），“湖边”只命中《湖边白鹭捕鱼》（s = 1）。"
           "τ → 0 时 softmax 变成 one-hot，软注意力就成了硬注意力。",
    wrong={"湖边白鹭捕鱼": "不对：《湖边白鹭捕鱼》只和查询共有一个词“湖边”（s = 1）。数一数每个标题与查询共有几个词。",
           "加权混合": _NO_MIX, "所有视频": _NO_MIX, "混合": _NO_MIX},
    options=_TITLES,
    wrong_default=f"不对：《{{norm}}》和查询“{PREDICT_QUERY}”没有共有的词（s = 0）。",
    other=f"不对：{{answer!r}} 不是网站上的视频标题。可选：{'、'.join(_TITLES)}。",
    normalise=lambda text: "".join(text.split()).strip("《》\"'“”"),
)


register(Exercise(
    id="nb04_predict_video",
    notebook=_NB,
    title="预测：温度趋于 0 时返回哪个视频？",
    prompt=f"先不运行代码，预测：查询“{PREDICT_QUERY}”，温度 τ → 0 时，软注意力的结果几乎只来自哪一个视频？"
           "填视频标题（字符串），然后用 retrieve(查询, temperature=0.01) 或 RetrievalToy 验证。",
    solution="小狗学游泳",
    checker=check_predict_video,
    hints=["τ → 0 时 softmax(s / τ) 趋向 one-hot：只剩相似度 s 最大的那个视频。",
           "相似度 = 标题和查询共有的词的个数。分别数一数每个标题里有几个“湖边”“小狗”“游泳”。",
           "数一个给你看：《湖边白鹭捕鱼》和查询共有“湖边”1 个词 (s = 1)。把其余五个标题也数一遍，s 最大的那个标题就是要填的。"],
))


# --------------------------------------------------------------------------- nb04_tie_alpha
TIE_QUERY, TIE_TAU, TIE_TITLE = "入门", 0.01, "钢琴入门教程"
TIE_ALPHA = 0.5  # two titles share the top score 1: softmax splits the weight evenly


check_tie_alpha = number_answer(
    TIE_ALPHA, 0.01,
    unfinished="请填入一个 0 到 1 之间的数，例如 0.2。",
    vector_tip="（你可能填了整个 α 向量：只填《钢琴入门教程》那一项。）",
    passed="正确：《注意力入门教程》和《钢琴入门教程》并列最高分，τ 再小，softmax 也只能把权重平分，"
           "各得 0.5；硬注意力却只能选第一个——这就是并列时两者的区别。",
    traps=[near(1, 0.01, "不对：τ → 0 时 α 趋向 one-hot 的前提是最高分只有一个。这里有两个标题并列最高分。", "one_hot"),
           near(0, 0.01, "0 是硬注意力的结果（并列时取第一个，即《注意力入门教程》）。软注意力在并列时怎样分配？", "hard"),
           percent(0.01, "你填的像是百分数 (a percentage)：请写成 0 到 1 之间的小数。"),
           near(1 / _N_VIDEOS, 0.01, "这是均匀分布 (uniform) 的权重，对应 τ 很大的情况；这里 τ = 0.01 很小。")],
    wrong="数值不对：{value:g} {side}（允许误差 ±0.01）。",
)


register(Exercise(
    id="nb04_tie_alpha",
    notebook=_NB,
    title="读数：并列最高分时的软注意力",
    prompt=f"查询“{TIE_QUERY}”，温度 τ = {TIE_TAU}（软注意力）。《{TIE_TITLE}》得到的权重 α 是多少？"
           "填一个 0 到 1 之间的数（误差 ±0.01），可以用 retrieve 计算，也可以直接推理。",
    solution=TIE_ALPHA,
    checker=check_tie_alpha,
    hints=[f"先看相似度：retrieve('{TIE_QUERY}').scores。有几个标题得到了最高分？",
           "τ 越小，不是最高分的标题权重越接近 0；但并列最高分的标题之间，exp(s / τ) 完全相同。",
           "两个标题并列最高分 s：它们的 exp(s / τ) 相同，其余标题的 exp 与之相比几乎为 0，"
           f"所以 α ≈ exp(s/τ) / (exp(s/τ) + exp(s/τ))，化简即可。验证：retrieve('{TIE_QUERY}', temperature={TIE_TAU}).alpha[5]。"],
))
