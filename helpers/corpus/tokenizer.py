"""The English tokenizer: the corpus's own tokens, and English as a student types it.

* ``tokenize_en(text)``: lower-case tokens, punctuation split off, full-width punctuation mapped to
  ASCII ("!" read as "."), contractions expanded the way the grammar writes them (don't -> do not,
  what's -> what is, i'd -> i would, tom's -> tom 's), the numbers 0-100 written as words the way
  the numbers family writes them (``families/numerals``): "21" and "twenty-one" -> twenty one (two
  tokens), "21st" -> twenty first, "100" -> one hundred, "6:30" -> six thirty, "6:00" -> six o'clock
  ("o'clock" is one token). A tokenised corpus sentence reads back unchanged. Extra spaces do not matter.
* ``typed_tokens(text)``: the same tokens with the surface form the user typed for each one
  ("Xiaoming" -> ("xiaoming", "Xiaoming")), so a copied unknown word keeps its capitals.
* ``complete_sentence(tokens)``: the tokens of the clean form of a sentence typed without its final
  punctuation: "?" after a question (it starts with a wh-word or an auxiliary), "." otherwise; a
  trailing comma goes, "..." becomes one ".". ``translate`` uses it (Input as students type it).

This module imports nothing from the corpus (no import circle): the tokenizer is plain text rules.
"""

from __future__ import annotations

import re
import unicodedata

from helpers.runtime.errors import HelpersError

__all__ = ["CONTRACTIONS", "QUESTION_STARTS", "complete_sentence", "has_cjk", "number_words", "tokenize_en",
           "typed_tokens"]

# "!" is read as "." (the corpus has no exclamations; "i like tea !" should translate, not fail)
_FULLWIDTH = str.maketrans({"，": ",", "。": ".", "？": "?", "！": ".", "!": ".", "：": ":", "；": ";", "、": ",",
                            "“": '"', "”": '"', "‘": "'", "’": "'", "（": "(", "）": ")", "`": "'"})
CONTRACTIONS = {
    "don't": "do not", "doesn't": "does not", "didn't": "did not", "isn't": "is not", "aren't": "are not",
    "wasn't": "was not", "weren't": "were not", "won't": "will not", "can't": "can not", "cannot": "can not",
    "shan't": "shall not",
    "haven't": "have not", "hasn't": "has not", "i'm": "i am", "you're": "you are", "we're": "we are",
    "they're": "they are", "he's": "he is", "she's": "she is", "it's": "it is", "that's": "that is",
    "what's": "what is", "where's": "where is", "who's": "who is", "how's": "how is", "when's": "when is",
    "why's": "why is", "there's": "there is", "here's": "here is",
    "i've": "i have", "you've": "you have", "we've": "we have", "they've": "they have", "i'll": "i will",
    "you'll": "you will", "he'll": "he will", "she'll": "she will", "we'll": "we will", "they'll": "they will",
    "i'd": "i would", "you'd": "you would", "he'd": "he would", "she'd": "she would", "we'd": "we would",
    "they'd": "they would", "let's": "let us",
}
# any other word + 're / 've / 'll / 'd / 'm ("what're", "it'll", "who'd"); "'s" stays possessive
_SUFFIXES = {"'re": "are", "'ve": "have", "'ll": "will", "'d": "would", "'m": "am"}
_TOKEN = re.compile(r"<unk>|[a-z0-9]+(?:'[a-z]+)*|'s\b|\S", re.IGNORECASE)  # <unk>: the corpus's unknown word
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")

_ORDINALS = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
             "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
             "eighteenth", "nineteenth")
_TENS_ORDINALS = {20: "twentieth", 30: "thirtieth", 40: "fortieth", 50: "fiftieth", 60: "sixtieth",
                  70: "seventieth", 80: "eightieth", 90: "ninetieth"}
_ORDINAL = re.compile(r"(\d{1,3})(st|nd|rd|th)")
_CLOCK = re.compile(r"\b(\d{1,2}):(\d{2})\b")
_KEEP = {"o'clock"}  # one token, as the clock family writes it
_UNITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
          "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = {20: "twenty", 30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy", 80: "eighty",
         90: "ninety"}
_TENS_WORDS = set(_TENS.values())

# a sentence that starts with one of these is a question ("what is your name" -> ... ?)
QUESTION_STARTS = frozenset((
    "what", "where", "who", "whom", "how", "why", "when", "which", "whose",
    "do", "does", "did", "is", "are", "am", "was", "were", "can", "could", "will", "would", "may", "might",
    "shall", "should", "have", "has", "must",
))
_NOT_QUESTION_SECOND = {"what": {"a", "an"}, "how": {"nice", "beautiful", "lovely", "kind", "great"},
                        "do": {"not"}, "does": {"not"}, "have": {"a", "an", "fun", "some"}}
_END = {".", "?"}
_DROP_AT_END = {",", ";", ":", "-", "—"}


def number_words(n: int, ordinal: bool = False) -> list[str]:
    """English tokens of a number 0..100: 7 -> [seven], 21 -> [twenty, one], 100 -> [one, hundred];
    ``ordinal``: 3 -> [third], 21 -> [twenty, first], 100 -> [one, hundredth]."""
    if not 0 <= n <= 100:
        raise HelpersError(f"只能写出 0 到 100 的数 (0..100 only)，收到 (got) {n!r}。")
    if n < 20:
        return [(_ORDINALS if ordinal else _UNITS)[n]]
    if n == 100:
        return ["one", "hundredth" if ordinal else "hundred"]
    tens, unit = divmod(n, 10)
    if not unit:
        return [(_TENS_ORDINALS if ordinal else _TENS)[n]]
    return [_TENS[10 * tens], (_ORDINALS if ordinal else _UNITS)[unit]]


def _clock(match) -> str:
    """6:30 -> "6 30", 6:00 -> "6 o'clock" (read on as number words)."""
    hour, minute = match.group(1), match.group(2)
    return f"{hour} o'clock" if minute == "00" else f"{hour} {int(minute)}"


def _expand(word: str) -> list[str]:
    """One lower-case raw token -> corpus tokens (contractions, digits)."""
    if word == "'s":  # already tokenised text ("tom 's cat") reads back unchanged
        return [word]
    if word in CONTRACTIONS:
        return CONTRACTIONS[word].split()
    if word in _KEEP:
        return [word]
    if word.isdigit() and len(word) <= 3 and int(word) <= 100:
        return number_words(int(word))
    ordinal = _ORDINAL.fullmatch(word)
    if ordinal and int(ordinal.group(1)) <= 100:
        return number_words(int(ordinal.group(1)), ordinal=True)
    if word.endswith("n't"):  # "didn't" -> did not; an already split "n't" -> not
        return [t for t in (word[:-3], "not") if t]
    if word.endswith("'s"):
        return [word[:-2], "'s"]
    for suffix, full in _SUFFIXES.items():
        if word.endswith(suffix) and len(word) > len(suffix):
            return [word[: -len(suffix)], full]
    if "'" in word:
        return [p for p in re.split(r"(')", word) if p]
    return [word]


def typed_tokens(text: str) -> list[tuple[str, str]]:
    """(token, surface) pairs: the corpus token and what the user typed for it (capitals kept).

    A token made by a rule (a contraction's "not", a number word) has itself as its surface."""
    if not isinstance(text, str):
        raise HelpersError(f"tokenize_en 需要一个字符串 (a str)，收到的是 (got) {type(text).__name__}。")
    text = unicodedata.normalize("NFKC", text.translate(_FULLWIDTH)).translate(_FULLWIDTH)
    text = _CLOCK.sub(_clock, text)
    out: list[tuple[str, str]] = []
    for raw in _TOKEN.findall(text):
        low = raw.lower()
        parts = _expand(low)
        if parts == [low]:
            out.append((low, raw))
        elif low.startswith(parts[0]) and not low.isdigit():  # "Xiaoming's" -> (xiaoming, Xiaoming) ('s, 's)
            out += [(parts[0], raw[: len(parts[0])])] + [(p, p) for p in parts[1:]]
        else:
            out += [(p, p) for p in parts]
    return _split_hyphenated_numbers(out)


def _split_hyphenated_numbers(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """twenty - one -> twenty one, twenty - first -> twenty first (the corpus writes 21-99 as two tokens)."""
    units = set(_UNITS[1:10]) | set(_ORDINALS[1:10])
    return [p for k, p in enumerate(pairs)
            if not (p[0] == "-" and 0 < k < len(pairs) - 1 and pairs[k - 1][0] in _TENS_WORDS
                    and pairs[k + 1][0] in units)]


def tokenize_en(text: str) -> list[str]:
    """Tokenise English the way the corpus does: "Tom's cat didn't eat." -> [tom 's cat did not eat .]."""
    return [tok for tok, _ in typed_tokens(text)]


def is_question(tokens) -> bool:
    """True when a sentence starts with a wh-word or an auxiliary ("do you like tea", "what is your name")."""
    words = [t for t in tokens if any(ch.isalnum() for ch in t)]
    if not words or words[0] not in QUESTION_STARTS:
        return False
    return not (len(words) > 1 and words[1] in _NOT_QUESTION_SECOND.get(words[0], ()))


def complete_sentence(tokens) -> list[str]:
    """The tokens of the clean sentence: one final "." or "?" ("?" for a question), as the corpus ends.

    A trailing comma / colon goes, a run of final stops ("...", "?!") keeps its last mark; a sentence
    that already ends with "." or "?" is returned unchanged. Tokens without a word stay as they are."""
    tokens = list(tokens)
    if not any(any(ch.isalnum() for ch in t) for t in tokens):
        return tokens
    while tokens and tokens[-1] in _DROP_AT_END:
        tokens.pop()
    if tokens and tokens[-1] in _END:
        last = tokens[-1]
        while tokens and tokens[-1] in _END:
            tokens.pop()
        return tokens + [last]
    return tokens + ["?" if is_question(tokens) else "."]


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))
