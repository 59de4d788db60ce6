"""The source side of ``translate``: English as a student types it -> the ids a model reads (DESIGN §5).

* ``read_source(sentence, src_vocab)`` -> ``Source``: tokens of the clean form (capitals, contractions,
  digits and extra spaces as ``helpers.corpus.tokenizer`` reads them; the final "." or "?" added when
  missing, ``complete_sentence``), the surface form of each token as typed (what a copy writes), the
  ids, and which positions are unknown. A word outside the vocabulary is not refused: it becomes
  ``<unk>`` (its position is in ``Source.unknown``). Only input without any English word is refused:
  nothing but spaces / punctuation -> ``EmptyInputError``; Chinese only -> ``UnknownWordError`` that
  says the direction of translation; digits, emoji or symbols only -> ``UnknownWordError``.
* Input is cut before it is tokenised (``cut_source``: a few thousand characters, far more than the
  tokens a model reads), so a pasted 20 MB text costs milliseconds; the note says what was cut, counting
  the tokens only when it has counted them (a cut input gives its length in characters).
* ``prepare_source``: the older 4-tuple (tokens, ids, truncated, note) of ``read_source``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from helpers.runtime.errors import EmptyInputError, HelpersError, UnknownWordError, check_int

MAX_SRC_TOKENS = 60  # translate() keeps the first 60 source tokens of a longer input (see Translation.note)
MAX_SRC_LIMIT = 200  # the largest max_src_tokens a caller may ask for (the "long" split goes up to 60)
MAX_TOKEN_CHARS = 40  # no vocabulary word is that long: a longer token is shortened (and copied shortened)
# Input is cut before it is tokenised (a 20 MB paste took 15 s and 285 MB, issue 32): at most
# (max_src_tokens + CUT_MARGIN + 1) * CHARS_PER_TOKEN characters are read, cut at a space when there is one
# in the second half. Tokens next to the cut may read differently (a clock time or "twenty - one" split by
# it), so the first max_src_tokens tokens are those of the whole input only when the cut text holds more than
# max_src_tokens + CUT_MARGIN tokens; otherwise the note says that the input was cut in characters.
CHARS_PER_TOKEN = 100
CUT_MARGIN = 4
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_ENGLISH_WORD = re.compile(r"[a-z0-9]*[a-z][a-z0-9]*(?:[-'][a-z0-9]+)*")  # a Latin letter at least: zork0, 3pm


@dataclass
class Source:
    """An English sentence read for a model.

    tokens     corpus tokens (lower case, final punctuation added when ``punctuate``)
    surfaces   what the user typed for each token ("Xiaoming" for "xiaoming"); rule-made tokens as themselves
    ids        source ids, ``<unk>`` (id 3) for a word outside the vocabulary
    unknown    positions of the tokens read as ``<unk>``
    """

    tokens: list[str]
    surfaces: list[str]
    ids: list[int]
    unknown: list[int] = field(default_factory=list)
    truncated: bool = False
    note: str = ""


def _chinese_input_error(sentence: str, chinese: list[str]) -> UnknownWordError:
    """The error for Chinese input: the direction of translation and an English example."""
    shown = sentence.strip() if len(sentence.strip()) <= 30 else sentence.strip()[:29] + "…"
    return UnknownWordError(
        f"输入里有中文 (Chinese input)：{shown!r}。这个模型把英文翻译成中文 (it translates English into Chinese)，"
        "请输入英文句子 (English input expected)，例如 translate(model, 'i am a student .')，"
        "语料里它的中文是“我是一名学生。”。",
        words=chinese, suggestions={w: [] for w in chinese},
    )


def is_english_word(token: str, src_vocab) -> bool:
    """A vocabulary word (not punctuation) or a word with a Latin letter ("xiaoming", "well-known", "mp3")."""
    if token in src_vocab:
        return any(ch.isalnum() for ch in token) and not token.startswith("<")
    return bool(_ENGLISH_WORD.fullmatch(token))


def read_source(sentence, src_vocab, max_src_tokens: int = MAX_SRC_TOKENS, punctuate: bool = True) -> Source:
    """Check and read an English sentence (see the module docstring); more than ``max_src_tokens``
    tokens: only the first ones are kept and ``note`` says so."""
    from helpers.corpus.tokenizer import complete_sentence, typed_tokens

    max_src_tokens = check_int("max_src_tokens", max_src_tokens, 1, MAX_SRC_LIMIT,
                               f"例如 max_src_tokens={MAX_SRC_TOKENS}（超出的词会被截断 truncated）。")
    if not isinstance(sentence, str):
        raise HelpersError(f"请输入一个英文句子字符串 (a str)，收到的是 (got) {type(sentence).__name__}。"
                           f"例如 translate(model, 'i am a student .')。")
    text, kept = cut_source(sentence, max_src_tokens)
    pairs = typed_tokens(text)
    read_only = (f"输入很长（{len(sentence):,} 个字符），只读了前 {kept:,} 个字符 "
                 f"(input cut to its first {kept:,} of {len(sentence):,} characters)")
    if not any(any(ch.isalnum() for ch in t) for t, _ in pairs):
        if kept:
            raise EmptyInputError(f"{read_only}，其中没有英文单词 (no English word in them)。请输入一个英文句子，"
                                  f"例如 'i am a student .'。")
        raise EmptyInputError("句子是空的或只有标点 (empty input)：请输入至少一个英文单词，例如 'i am a student .'。")
    if punctuate:
        done = complete_sentence([t for t, _ in pairs])
        pairs = pairs[: len(done) - 1] + [(done[-1], done[-1])] if done != [t for t, _ in pairs] else pairs
    truncated, note = False, ""
    if kept and len(pairs) > max_src_tokens + CUT_MARGIN:  # the first tokens are those of the whole input
        note = (f"输入很长（{len(sentence):,} 个字符），超过 {max_src_tokens} 个词，只翻译了前 {max_src_tokens} 个 "
                f"(input truncated to its first {max_src_tokens} tokens; {len(sentence):,} characters in all)。")
        pairs, truncated = pairs[:max_src_tokens], True
    elif kept:  # the cut itself left words out
        more = f"，其中只翻译了前 {max_src_tokens} 个词 (first {max_src_tokens} tokens)" if len(pairs) > max_src_tokens else ""
        note, truncated = f"{read_only}{more}。", True
        pairs = pairs[:max_src_tokens]
    elif len(pairs) > max_src_tokens:
        note = (f"输入有 {len(pairs)} 个词，超过 {max_src_tokens} 个，只翻译了前 {max_src_tokens} 个 "
                f"(input truncated to the first {max_src_tokens} of {len(pairs)} tokens)。")
        pairs, truncated = pairs[:max_src_tokens], True
    english = any(is_english_word(t, src_vocab) for t, _ in pairs)
    short = [(t, s) if len(t) <= MAX_TOKEN_CHARS else (t[:20] + "…", s[:20] + "…") for t, s in pairs]
    tokens, surfaces = [t for t, _ in short], [s for _, s in short]
    if not english:
        chinese = [t for t in tokens if _CJK.search(t)]
        if chinese:
            raise _chinese_input_error(text, chinese)
        where = f"{read_only}，" if kept else ""
        raise UnknownWordError(
            f"{where}句子里没有英文单词 (no English word): {' '.join(tokens)[:60]!r}。这个模型把英文翻译成中文 "
            "(it translates English into Chinese)，请输入至少一个英文单词，例如 'i am a student .'。",
            words=[t for t in tokens if t not in src_vocab], suggestions={})
    unknown = [i for i, t in enumerate(tokens) if t not in src_vocab]
    note += unknown_note([tokens[i] for i in unknown], src_vocab)
    return Source(tokens, surfaces, src_vocab.encode(tokens, unknown="unk"), unknown, truncated, note)


def cut_source(sentence: str, max_src_tokens: int) -> tuple[str, int]:
    """(text to tokenise, 0) for input within the character bound (see ``CHARS_PER_TOKEN``); otherwise
    (its first characters, how many were kept), cut at a space when one lies in the second half."""
    limit = (max_src_tokens + CUT_MARGIN + 1) * CHARS_PER_TOKEN
    if len(sentence) <= limit:
        return sentence, 0
    cut = sentence[:limit]
    for i in range(limit - 1, limit // 2, -1):
        if cut[i].isspace():
            cut = cut[:i]
            break
    return cut, len(cut)


MAX_NOTED = 5  # the note names at most this many unknown words (each costs a search for close words)


def unknown_note(words, src_vocab) -> str:
    """A bilingual remark on the words read as <unk>, with the closest vocabulary words (a typo?), or ""."""
    words = list(dict.fromkeys(words))
    if not words:
        return ""
    parts = []
    for w in words[:MAX_NOTED]:
        close = src_vocab.suggestions(w) if hasattr(src_vocab, "suggestions") and not _CJK.search(w) else []
        parts.append(f"{w!r}" + (f" → {', '.join(close)}" if close else ""))
    more = f" … (+{len(words) - MAX_NOTED})" if len(words) > MAX_NOTED else ""
    return (f"词表之外的词读作 <unk> (unknown words, read as <unk>): {'; '.join(parts)}{more}。"
            "模型输出 <unk> 时，译文里写的是那一步注意力最大的源词 (copied through attention)；"
            "如果是拼写错误，请改用箭头后最接近的词表单词 (closest vocabulary words)。")


def prepare_source(sentence, src_vocab, max_src_tokens: int = MAX_SRC_TOKENS, punctuate: bool = True):
    """(tokens, ids, truncated, note) of ``read_source``: unknown words are ``<unk>`` ids, not an error."""
    s = read_source(sentence, src_vocab, max_src_tokens, punctuate)
    return s.tokens, s.ids, s.truncated, s.note
