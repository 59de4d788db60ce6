"""English tokenizer and vocabularies of the toy corpus (re-exported by ``helpers.corpus``).

* ``tokenize_en`` (from ``helpers.corpus.tokenizer``): lower-case, punctuation split off, contractions
  expanded the way the grammar writes them (don't -> do not, tom's -> tom 's), digits 0-100 as words.
* ``Vocab``: token <-> id with <pad> <bos> <eos> <unk> at ids 0..3 (V = len(vocab)); an unknown word
  raises ``UnknownWordError`` (a ValueError) that names every unknown word and suggests close ones,
  ranked by word class, then edit distance (``Vocab.suggestions``); the example words are plain words.
* ``build_vocabs``: source and target vocabularies: the tokens of the generated train split (sorted),
  kept in data/vocab.json (``python -m helpers.corpus vocab`` writes it, ``helpers.corpus.vocab_file``
  checks it is fresh), so a model can produce every token it saw in training.
"""

from __future__ import annotations

import difflib
import json
import os
from functools import lru_cache

from helpers.corpus import lexicon as L
from helpers.corpus.syllabus import DATA
from helpers.corpus.tokenizer import CONTRACTIONS, has_cjk, tokenize_en  # noqa: F401 (re-exported)
from helpers.runtime.errors import EmptyInputError, HelpersError, UnknownWordError

PAD, BOS, EOS, UNK = "<pad>", "<bos>", "<eos>", "<unk>"
SPECIALS = (PAD, BOS, EOS, UNK)

# --------------------------------------------------------------------------- vocabulary
class Vocab:
    """Token <-> id mapping. ``lang`` is "en" (join with spaces) or "zh" (join without spaces)."""

    PAD, BOS, EOS, UNK = SPECIALS
    pad_id, bos_id, eos_id, unk_id = 0, 1, 2, 3

    def __init__(self, tokens, lang="en"):
        if lang not in ("en", "zh"):
            raise HelpersError(f"未知的语言 (unknown lang) {lang!r}：只能是 'en' 或 'zh'。")
        self.lang = lang
        self.itos = list(SPECIALS) + [t for t in dict.fromkeys(tokens) if t not in SPECIALS]
        self.stoi = {t: i for i, t in enumerate(self.itos)}

    def __len__(self):
        return len(self.itos)

    def __contains__(self, token):
        return token in self.stoi

    def __eq__(self, other):
        return isinstance(other, Vocab) and self.lang == other.lang and self.itos == other.itos

    __hash__ = None

    def __repr__(self):
        return f"Vocab(lang={self.lang!r}, size={len(self)})"

    def __getitem__(self, token):
        try:
            return self.stoi[token]
        except KeyError:
            raise self.unknown_error([token]) from None

    def suggestions(self, word, n=3):
        """Up to n close vocabulary words, ranked by word class, then edit distance.

        The class of an unknown word is guessed from its ending (-ing / -ed: verb, -s: noun or verb,
        -ly: adverb) and candidates of that class come first; then the smaller edit distance, the
        longer shared beginning, and content words before function words. Punctuation is never suggested.
        """
        word = str(word).lower()
        words = [t for t in self.itos[len(SPECIALS):] if any(ch.isalnum() for ch in t)]
        limit = max(1, min(3, len(word) // 3 + 1))
        scored = [(w, _edit_distance(word, w)) for w in words if abs(len(w) - len(word)) <= limit]
        close = [(w, d) for w, d in scored if d <= limit]
        if not close:
            close = [(w, _edit_distance(word, w)) for w in difflib.get_close_matches(word, words, n=n, cutoff=0.6)]
        wanted = _guess_classes(word)
        classes = word_classes() if self.lang == "en" else {}

        def key(item):
            w, d = item
            cls = classes.get(w, "function" if self.lang == "en" else "word")
            prefix = len(os.path.commonprefix([w, word]))
            return (0 if (cls in wanted or not wanted) else 1, d, -prefix, CLASS_RANK.get(cls, len(CLASS_RANK)), w)

        return [w for w, _ in sorted(close, key=key)[:n]]

    def example_words(self, n=8):
        """Plain words to show as examples (no punctuation, no specials)."""
        common = [w for w in EXAMPLE_WORDS if w in self.stoi]
        rest = [t for t in self.itos[len(SPECIALS):] if t.isalpha() and t not in common]
        return (common + rest)[:n]

    def unknown_error(self, words, hint=""):
        words = list(dict.fromkeys(words))
        sugg = {w: self.suggestions(w) for w in words}
        listed = ", ".join(repr(w) for w in words)
        parts = [f"{w!r} → {', '.join(s) if s else '—'}" for w, s in sugg.items()]
        examples = ", ".join(self.example_words())
        msg = (f"句子里有词表之外的词 (unknown words): {listed}。{hint}"
               f"最接近的词表单词 (closest vocabulary words): {'; '.join(parts)}。"
               f"请只用语料中的单词 (use only words of the corpus vocabulary)，例如 (e.g.) {examples} …")
        return UnknownWordError(msg, words=words, suggestions=sugg)

    def encode(self, tokens, add_bos=False, add_eos=False, unknown="raise") -> list[int]:
        """Ids of tokens. unknown="raise" -> UnknownWordError naming every unknown word; "unk" -> <unk>."""
        if unknown not in ("raise", "unk"):
            raise HelpersError(f"unknown 参数只能是 'raise' 或 'unk' (got {unknown!r})。")
        if isinstance(tokens, str):
            raise HelpersError("encode 需要词的列表 (a list of tokens)，不是字符串；请先调用 tokenize_en(text)。")
        tokens = list(tokens)
        missing = [t for t in tokens if t not in self.stoi]
        if missing and unknown == "raise":
            raise self.unknown_error(missing)
        ids = [self.stoi.get(t, self.unk_id) for t in tokens]
        return ([self.bos_id] if add_bos else []) + ids + ([self.eos_id] if add_eos else [])

    def decode(self, ids, strip_special=True) -> list[str]:
        """Tokens of ids. strip_special: stop at the first <eos>, drop <pad>/<bos> (keep <unk>)."""
        if hasattr(ids, "tolist"):
            ids = ids.tolist()
        out = []
        for i in ids:
            try:
                i = int(i)
            except (TypeError, ValueError):
                raise HelpersError(f"decode 需要整数 id (integer ids)，收到 (got) {i!r}。") from None
            if not 0 <= i < len(self.itos):
                raise HelpersError(f"id {i} 超出词表范围 (out of range) 0..{len(self.itos) - 1}。"
                                   f"请检查模型输出的维度 V 是否等于 len(vocab)。")
            if strip_special:
                if i == self.eos_id:
                    break
                if i in (self.pad_id, self.bos_id):
                    continue
            out.append(self.itos[i])
        return out

    def join(self, tokens) -> str:
        """Display string: Chinese without spaces, English with spaces."""
        return ("" if self.lang == "zh" else " ").join(tokens)

    def to_dict(self) -> dict:
        return {"format": "helpers.Vocab/1", "lang": self.lang, "itos": list(self.itos)}

    @classmethod
    def from_dict(cls, d):
        ok = (isinstance(d, dict) and isinstance(d.get("itos"), list) and all(isinstance(t, str) for t in d["itos"])
              and tuple(d["itos"][:4]) == SPECIALS and d.get("lang") in ("en", "zh"))
        if not ok:
            raise HelpersError("词表数据无效 (invalid vocab dict)：需要 Vocab.to_dict() 生成的字典，"
                               "含 lang 和以 <pad> <bos> <eos> <unk> 开头的 itos。")
        return cls(d["itos"][4:], lang=d["lang"])


def _edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insert, delete, substitute; a swap of two letters counts 1)."""
    prev = list(range(len(b) + 1))
    prev2 = None
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cost = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if prev2 is not None and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, prev2[j - 2] + 1)
            cur.append(cost)
        prev2, prev = prev, cur
    return prev[-1]


CLASS_RANK = {"noun": 0, "verb": 1, "adjective": 2, "name": 3, "adverb": 4, "pronoun": 5, "number": 6,
              "function": 7}
EXAMPLE_WORDS = ("i", "you", "like", "tea", "book", "student", "go", "school")


def _guess_classes(word: str) -> set:
    if word.endswith(("ing", "ed")):
        return {"verb"}
    if word.endswith("ly"):
        return {"adverb"}
    if word.endswith("s") and len(word) > 3:
        return {"noun", "verb"}
    return set()


@lru_cache(maxsize=1)
def word_classes() -> dict:
    """English vocabulary word -> class (noun, verb, adjective, name, adverb, pronoun, number, function)."""
    out = {}
    for forms in L.PRONOUNS.values():
        out.update(dict.fromkeys(forms[:3], "pronoun"))
    out.update(dict.fromkeys(L.NAMES, "name"))
    out.update(dict.fromkeys(L.ADJECTIVES, "adjective"))
    out.update(dict.fromkeys(list(L.FREQ) + ["very", "today", "tomorrow", "yesterday", "tonight", "now"], "adverb"))
    out.update(dict.fromkeys(L.NUMBERS_EN.values(), "number"))
    for n in L.NOUNS.values():
        out.update(dict.fromkeys((n.sg, n.pl), "noun"))
    for c in L.CONTAINERS.values():
        out.update(dict.fromkeys(c[:2], "noun"))
    for words, _p, _z in L.PLACES.values():
        out.update(dict.fromkeys([w for w in words if w != "the"], "noun"))
    for v in list(L.VERBS.values()) + list(L.INTRANSITIVE.values()) + [L.GO, L.COME, L.RAIN]:
        out.update(dict.fromkeys(v[:4], "verb"))
    out.update(dict.fromkeys(["never", "early", "together", "there", "here"], "adverb"))
    for words, _zh, _t in L.TIMES.values():
        out.update({w: "noun" for w in words if w not in out})
    return out


# --------------------------------------------------------------------------- the vocabulary file
VOCAB_FILE = DATA / "vocab.json"


@lru_cache(maxsize=1)
def read_vocab_file() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(English tokens, Chinese tokens) of data/vocab.json: the tokens of the train split (see vocab_file.py)."""
    try:
        d = json.loads(VOCAB_FILE.read_text(encoding="utf-8"))
        return tuple(d["en"]), tuple(d["zh"])
    except (OSError, ValueError, KeyError, TypeError):
        raise HelpersError("词表文件缺失或损坏 (vocabulary file missing or broken): helpers/corpus/data/vocab.json；"
                           "请运行 (run) `python -m helpers.corpus vocab`。") from None


def build_vocabs() -> tuple[Vocab, Vocab]:
    """(src_vocab, tgt_vocab) over the tokens of the generated train split (sorted, read from data/vocab.json)."""
    en, zh = read_vocab_file()
    return Vocab(en, "en"), Vocab(zh, "zh")


def encode_sentence(text, src_vocab: Vocab, add_bos=False, add_eos=False) -> list[int]:
    """Tokenise English text and encode it; EmptyInputError / UnknownWordError on bad input."""
    if not isinstance(text, str):
        raise HelpersError(f"请输入一个英文句子字符串 (a str)，收到的是 (got) {type(text).__name__}。")
    tokens = tokenize_en(text)
    if not any(any(ch.isalnum() for ch in t) for t in tokens):
        raise EmptyInputError("句子是空的 (empty input)：请输入至少一个英文单词，例如 'i am a student .'。")
    missing = [t for t in tokens if t not in src_vocab]
    if missing:
        hint = "请输入英文句子 (English input expected)。" if has_cjk(text) else ""
        raise src_vocab.unknown_error(missing, hint)
    return src_vocab.encode(tokens, add_bos=add_bos, add_eos=add_eos)
