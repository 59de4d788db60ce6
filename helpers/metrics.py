"""Evaluation metrics: BLEU (char / word level), exact match, alignment error rate (AER).

* ``bleu(hypotheses, references, level="char"|"word")`` is corpus-level BLEU (Papineni et al. 2002)
  on a 0..1 scale, computed exactly as ``sacrebleu.corpus_bleu`` does (same n-gram counting, same
  brevity penalty, same default ``"exp"`` smoothing), so numbers agree with sacrebleu / 100.
* ``level="char"`` tokenises like sacrebleu's ``tokenize="zh"``: every Chinese character and every
  full-width / CJK punctuation mark (，。？！) is one token, spaces are ignored; runs of Latin
  letters or digits stay whole words and ASCII punctuation is split off (sacrebleu's ``13a`` rules).
  On our Chinese output this means: one token per character, whether or not the text has spaces.
* ``level="word"`` uses the tokens as given (a string is split on whitespace), like sacrebleu's
  ``tokenize="none"`` on space-joined tokens.
* Every reference counts: each entry of ``references`` is one reference (a string or a token list) or
  a list of acceptable ones (``Pair.references``). Multi-reference BLEU (Papineni et al. 2002 §2.1,
  §2.2.2; sacrebleu with several reference streams): an n-gram's count is clipped by its largest count
  in any one reference, and the brevity penalty uses the reference length closest to the hypothesis
  (the shorter one on a tie). ``exact_match`` counts a hypothesis equal to any of its references.
* ``aer`` is the alignment error rate of Och & Ney (2003) against sure links S and possible
  links P (S ⊆ P): ``AER = 1 - (|A∩S| + |A∩P|) / (|A| + |S|)``. An attention matrix is reduced to
  links A with the standard arg-max rule (Luong et al. 2015, §5.4): each target token j is linked
  to the source token i it attends to most.

Links are pairs ``(source_index, target_index)``; an attention matrix is ``[T, S]`` with
``attention[j, i]`` = weight on source token i when producing target token j, as returned by
``helpers.translate(...).attention``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence

from helpers.runtime.errors import EmptyInputError, HelpersError, ShapeError

__all__ = [
    "aer",
    "attention_to_links",
    "bleu",
    "char_tokens",
    "corpus_aer",
    "exact_match",
    "sentence_bleu",
]

# --- tokenisation (mirrors sacrebleu.tokenizers.tokenizer_zh + tokenizer_re) -----------------

# Code-point ranges sacrebleu's "zh" tokenizer treats as one-character tokens.
_CJK_RANGES = (
    ("\u3400", "\u4db5"), ("\u4e00", "\u9fa5"), ("\u9fa6", "\u9fbb"), ("\uf900", "\ufa2d"),
    ("\ufa30", "\ufa6a"), ("\ufa70", "\ufad9"), ("\uff00", "\uffef"), ("\u2e80", "\u2eff"),
    ("\u3000", "\u303f"), ("\u31c0", "\u31ef"), ("\u2f00", "\u2fdf"), ("\u2ff0", "\u2fff"),
    ("\u3100", "\u312f"), ("\u31a0", "\u31bf"), ("\ufe10", "\ufe1f"), ("\ufe30", "\ufe4f"),
    ("\u2600", "\u26ff"), ("\u2700", "\u27bf"), ("\u3200", "\u32ff"), ("\u3300", "\u33ff"),
)  # fmt: skip

# sacrebleu's post-tokenizer for non-CJK runs (the "13a" regular expressions).
_ASCII_RULES = (
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)

_SMOOTHING = ("exp", "none")


def _is_cjk(ch: str) -> bool:
    return any(lo <= ch <= hi for lo, hi in _CJK_RANGES)


def char_tokens(text: str) -> list[str]:
    """Split a string into BLEU tokens the way sacrebleu's ``tokenize="zh"`` does.

    >>> char_tokens("我 是一名学生。")
    ['我', '是', '一', '名', '学', '生', '。']
    """
    spaced = "".join(f" {ch} " if _is_cjk(ch) else ch for ch in text.strip())
    for pattern, repl in _ASCII_RULES:
        spaced = pattern.sub(repl, spaced)
    return spaced.split()


def _as_tokens(item, level: str, what: str, index: int) -> list[str]:
    """One hypothesis / reference (a string or a list of string tokens) -> list of tokens."""
    if isinstance(item, str):
        text, tokens = item, None
    elif isinstance(item, Sequence) and all(isinstance(t, str) for t in item):
        text, tokens = " ".join(item), [t for t in item if t != ""]
    else:
        raise HelpersError(
            f"{what} 的第 {index} 项类型不对 (wrong type): {type(item).__name__}。"
            "每一项应是字符串 (a string) 或词元列表 (a list of string tokens)，例如 '我是学生。' 或 ['我', '是', '学生', '。']。"
        )
    if level == "char":
        return char_tokens(text)
    return text.split() if tokens is None else tokens


_FINAL_MARKS = ("。", "？", "！", ".", "?", "!")


def _is_reference_list(item) -> bool:
    """True when a reference entry holds several references rather than one token list.

    A list of token lists (``Pair.references``) is several references. A list of strings is one token
    list, unless it has two or more items and each is a whole sentence: longer than one character and
    ending with a final mark ("我是学生。", "我是一名学生。") or holding a space ("a b c", "a b d"); a
    token list never looks like that (its final mark is a token of its own, a token has no space)."""
    if isinstance(item, str) or not isinstance(item, Sequence) or not len(item):
        return False
    if all(isinstance(r, Sequence) and not isinstance(r, str) for r in item):
        return True
    return (len(item) >= 2 and all(isinstance(r, str) for r in item)
            and all(len(r.strip()) > 1 and (r.strip().endswith(_FINAL_MARKS) or " " in r.strip()) for r in item))


def _reference_tokens(item, level: str, index: int) -> list[list[str]]:
    """One reference entry (a reference or a list of acceptable ones) -> a list of token lists."""
    if _is_reference_list(item):
        return [_as_tokens(r, level, "references", index) for r in item]
    return [_as_tokens(item, level, "references", index)]


def _check_level(level: str) -> None:
    if level not in ("char", "word"):
        raise HelpersError(
            f"未知的 level (unknown level): {level!r}。请使用 'char'（按字）或 'word'（按词）。"
        )


def _check_pair(hypotheses, references, fn: str) -> None:
    for what, seq in (("hypotheses", hypotheses), ("references", references)):
        if isinstance(seq, str) or not isinstance(seq, Sequence):
            raise HelpersError(
                f"{fn}: {what} 应是句子列表 (a list of sentences)，实际是 {type(seq).__name__}。"
                f"只有一句时请写成列表，例如 {fn}(['我是学生。'], ['我是一名学生。'])。"
            )
    if len(hypotheses) != len(references):
        raise HelpersError(
            f"{fn}: 译文和参考译文的数量不一致 (mismatched lengths): hypotheses 有 {len(hypotheses)} 句，"
            f"references 有 {len(references)} 句。每个译文需要一项参考译文 (one reference entry per hypothesis："
            f"一个参考译文，或一组同样好的参考译文 one reference or a list of acceptable ones)。"
        )
    if len(hypotheses) == 0:
        raise EmptyInputError(f"{fn}: 没有任何句子 (empty corpus)。请至少传入一对译文和参考译文。")


# --- BLEU ---------------------------------------------------------------------------------------


def _ngrams(tokens: list[str], max_n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for n in range(1, max_n + 1) for i in range(len(tokens) - n + 1))


def _bleu_from_stats(correct, total, sys_len, ref_len, smooth, effective_order) -> float:
    """BLEU from summed statistics, following sacrebleu ``BLEU.compute_bleu`` step by step."""
    bp = 1.0 if sys_len >= ref_len else (math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0)
    if not any(correct):
        return 0.0
    max_n = len(correct)
    precisions = [0.0] * max_n
    eff_order, smooth_mteval = max_n, 1.0
    for n in range(max_n):
        if total[n] == 0:  # no n-grams of this order at all (every hypothesis shorter than n)
            break
        if effective_order:
            eff_order = n + 1
        if correct[n] == 0:
            if smooth == "exp":  # NIST / mteval-v13a smoothing: 1/2, 1/4, ... of a match
                smooth_mteval *= 2
                precisions[n] = 1.0 / (smooth_mteval * total[n])
        else:
            precisions[n] = correct[n] / total[n]
    used = precisions[:eff_order]
    if min(used) == 0.0:
        return 0.0
    return bp * math.exp(sum(math.log(p) for p in used) / eff_order)


def _bleu(hypotheses, references, level, max_n, smooth, effective_order, fn) -> float:
    _check_level(level)
    if smooth not in _SMOOTHING:
        raise HelpersError(
            f"{fn}: 未知的平滑方法 (unknown smoothing) {smooth!r}。可用 (valid): {_SMOOTHING}。"
        )
    if not isinstance(max_n, int) or max_n < 1:
        raise HelpersError(f"{fn}: max_n 应为正整数 (a positive integer)，实际为 {max_n!r}。常用值为 4。")
    _check_pair(hypotheses, references, fn)
    correct, total = [0] * max_n, [0] * max_n
    sys_len = ref_len = 0
    for k, (hyp, ref) in enumerate(zip(hypotheses, references)):
        h = _as_tokens(hyp, level, "hypotheses", k)
        refs = _reference_tokens(ref, level, k)
        h_ngrams = _ngrams(h, max_n)
        r_max = Counter()  # the largest count of each n-gram in any one reference (the clip)
        for r in refs:
            r_max |= _ngrams(r, max_n)
        for gram, count in h_ngrams.items():
            total[len(gram) - 1] += count
            correct[len(gram) - 1] += min(count, r_max.get(gram, 0))
        sys_len += len(h)
        ref_len += min((abs(len(r) - len(h)), len(r)) for r in refs)[1]  # closest length, shorter on a tie
    return _bleu_from_stats(correct, total, sys_len, ref_len, smooth, effective_order)


def bleu(hypotheses, references, level: str = "char", max_n: int = 4, smooth: str = "exp") -> float:
    """Corpus-level BLEU in [0, 1] (sacrebleu ``corpus_bleu`` / 100).

    hypotheses, references: equally long lists; each hypothesis a string or a list of tokens; each
    reference entry one reference (a string or a token list) or a list of acceptable references
    (multi-reference BLEU: clipped by the largest count in any one reference, brevity penalty with the
    closest reference length). ``level="char"`` ignores spaces (sacrebleu ``tokenize="zh"``),
    ``level="word"`` uses the tokens as given.

    Statistics are summed over the corpus before the precisions are formed (corpus BLEU, not an
    average of sentence scores). ``smooth="exp"`` (sacrebleu's default) replaces the k-th zero
    n-gram precision by 1 / (2^k · total n-grams of that order); ``smooth="none"`` leaves it 0.
    Like sacrebleu, a corpus without any n-gram of some order ≤ max_n (e.g. only one-token
    sentences) scores 0, and empty hypotheses simply contribute length 0 (brevity penalty).
    """
    return _bleu(hypotheses, references, level, max_n, smooth, effective_order=False, fn="bleu")


def sentence_bleu(hypothesis, reference, level: str = "char", max_n: int = 4, smooth: str = "exp") -> float:
    """BLEU of one sentence in [0, 1], as sacrebleu ``sentence_bleu`` / 100.

    Uses sacrebleu's sentence defaults: ``"exp"`` smoothing and the *effective order* (n-gram
    orders longer than the hypothesis are left out), so a correct one-token output scores 1.0.
    """
    return _bleu([hypothesis], [reference], level, max_n, smooth, effective_order=True, fn="sentence_bleu")


def _squeeze(item) -> str:
    """A string or token list with all whitespace removed."""
    text = item if isinstance(item, str) else "".join(item)
    return "".join(text.split())


def _same(h, r) -> bool:
    if isinstance(h, str) or isinstance(r, str):
        return _squeeze(h) == _squeeze(r)
    return list(h) == list(r)


def exact_match(hyps, refs) -> float:
    """Share of hypotheses identical to their reference (or to any of their references), in [0, 1].

    Each entry of ``refs`` is one reference or a list of acceptable ones (as in ``bleu``). Two token
    lists must be equal token by token; as soon as one side is a string the comparison ignores all
    whitespace ("我 是" == "我是" == ['我', '是']).
    """
    _check_pair(hyps, refs, "exact_match")
    hits = 0
    for k, (h, r) in enumerate(zip(hyps, refs)):
        _as_tokens(h, "word", "hyps", k)  # type check only
        options = list(r) if _is_reference_list(r) else [r]
        for item in options:
            _as_tokens(item, "word", "refs", k)
        hits += any(_same(h, item) for item in options)
    return hits / len(hyps)


# --- alignment error rate -------------------------------------------------------------------------


def _to_matrix(attention):
    import numpy as np

    if hasattr(attention, "detach"):  # torch.Tensor
        attention = attention.detach().cpu().float().numpy()
    try:
        arr = np.asarray(attention, dtype=float)
    except (TypeError, ValueError) as exc:
        raise HelpersError(
            f"无法把输入转成注意力矩阵 (cannot read an attention matrix): {type(attention).__name__}。"
            "请传入形状为 [T, S] 的 numpy 数组或 torch 张量，或一个对齐链接集合 {(i, j), ...}。"
        ) from exc
    if arr.ndim != 2:
        raise ShapeError(
            f"注意力矩阵应是二维的 [T, S] (a 2-D matrix)，实际形状 (got) {list(arr.shape)}。"
            "一个句子的注意力请传 attention[j, i]（目标位置 j，源位置 i）；批量数据请逐句传入。"
        )
    if arr.size and not np.isfinite(arr).all():
        raise HelpersError("注意力矩阵里有 NaN 或 inf (non-finite values)。请先检查模型输出。")
    return arr


def attention_to_links(attention, n_src: int | None = None, n_tgt: int | None = None) -> set[tuple[int, int]]:
    """Reduce an attention matrix ``[T, S]`` to links {(i, j)}: i = arg-max source for target j.

    ``n_src`` / ``n_tgt`` crop the matrix to ``[:n_tgt, :n_src]`` first (e.g. to drop the extra
    ``<eos>`` row and column). Ties go to the smallest source index.
    """
    arr = _to_matrix(attention)
    for name, n in (("n_src", n_src), ("n_tgt", n_tgt)):
        if n is not None and (not isinstance(n, int) or n < 0):
            raise HelpersError(f"{name} 应为非负整数或 None (a non-negative int or None)，实际为 {n!r}。")
    arr = arr[:n_tgt, :n_src]
    if arr.shape[1] == 0:
        return set()
    return {(int(i), j) for j, i in enumerate(arr.argmax(axis=1))}


def _as_links(links, what: str) -> set[tuple[int, int]]:
    out = set()
    try:
        for pair in links:
            i, j = pair
            if isinstance(i, bool) or isinstance(j, bool) or int(i) != i or int(j) != j:
                raise TypeError
            out.add((int(i), int(j)))
    except (TypeError, ValueError) as exc:
        raise HelpersError(
            f"{what} 应是对齐链接的集合 (a set of links)，每个链接是 (源位置 source_index, 目标位置 target_index) "
            f"两个整数，例如 {{(0, 0), (2, 1)}}；实际为 {links!r:.80}。"
        ) from exc
    return out


def _links_or_matrix(x, n_src, n_tgt) -> set[tuple[int, int]]:
    if isinstance(x, (set, frozenset)):
        return _as_links(x, "对齐 (alignment)")
    if isinstance(x, (list, tuple)) and all(isinstance(p, tuple) for p in x):
        return _as_links(x, "对齐 (alignment)")
    return attention_to_links(x, n_src=n_src, n_tgt=n_tgt)


def _gold(sure, possible):
    """Accept (sure, possible) or a gold object with ``.sure`` / ``.possible`` attributes."""
    if possible is None and hasattr(sure, "sure"):
        sure, possible = sure.sure, getattr(sure, "possible", None)
    s = _as_links(sure, "sure")
    p = _as_links(possible, "possible") if possible is not None else set()
    return s, p | s  # possible ⊇ sure by definition


def _aer_counts(a, sure, possible, n_src, n_tgt):
    links = _links_or_matrix(a, n_src, n_tgt)
    s, p = _gold(sure, possible)
    return len(links & s), len(links & p), len(links), len(s)


def _aer_from_counts(a_s, a_p, n_a, n_s) -> float:
    if n_a + n_s == 0:
        return 0.0  # nothing predicted and nothing to find: no error
    return 1.0 - (a_s + a_p) / (n_a + n_s)


def aer(attention_or_links, sure, possible=None, n_src: int | None = None, n_tgt: int | None = None) -> float:
    """Alignment error rate (Och & Ney 2003) of one sentence, in [0, 1]; lower is better.

    ``attention_or_links``: a set of links {(i, j)} or an attention matrix [T, S] (reduced with
    ``attention_to_links(..., n_src, n_tgt)``). ``sure``: the gold sure links; ``possible``: the
    possible links (sure links are added to them if missing; None = sure only). ``sure`` may also
    be a gold alignment object with ``.sure`` and ``.possible``. Empty A and empty S give 0.0.
    """
    return _aer_from_counts(*_aer_counts(attention_or_links, sure, possible, n_src, n_tgt))


def corpus_aer(alignments: Iterable, sures: Iterable, possibles: Iterable | None = None) -> float:
    """AER over a corpus, micro-averaged: the counts |A∩S|, |A∩P|, |A|, |S| are summed first."""
    alignments, sures = list(alignments), list(sures)
    possibles = [None] * len(sures) if possibles is None else list(possibles)
    if not (len(alignments) == len(sures) == len(possibles)):
        raise HelpersError(
            f"corpus_aer: 数量不一致 (mismatched lengths): alignments {len(alignments)}，sure {len(sures)}，"
            f"possible {len(possibles)}。每个句子需要一组预测链接和一组标准链接 (gold links)。"
        )
    totals = [0, 0, 0, 0]
    for a, s, p in zip(alignments, sures, possibles):
        totals = [t + c for t, c in zip(totals, _aer_counts(a, s, p, None, None))]
    return _aer_from_counts(*totals)
