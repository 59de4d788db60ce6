"""Training pairs as a student's input looks: no final punctuation, and a word outside the vocabulary.

Applied to ``train`` only, after the splits are drawn (``_generate``), with its own seeded rng, so the
other splits do not change:

* ``NO_PUNCT_SHARE`` (10 %) of the train pairs lose their final English "." / "?" (the Chinese keeps
  its 。/？, the link of the removed token is dropped): a student types "tom ate an apple yesterday",
  and the model has seen such input (``translate`` adds the mark too, ``complete_sentence``).
* ``UNK_SHARE`` (8 %) of the train pairs have one name or one noun replaced by ``<unk>`` on both
  sides: every occurrence of the English word, and the Chinese token each occurrence is sure-linked
  to (the links stay; a measure word before the noun stays: 三 只 <unk>). So a model learns to put
  <unk> where the source word goes, and ``translate`` copies the source word back through attention
  (Luong et al. 2015b). A word qualifies only when each occurrence has exactly one sure link and its
  Chinese token is sure-linked to that occurrence alone (a clean one-to-one copy). ``refs`` get the
  same Chinese replacement.

Measured (a luong-general of 64/128 units trained 150 CPU-seconds on the train pairs of ≤ 12 tokens,
greedy, the 361 test pairs of ≤ 12 tokens): without the final mark the output is unchanged on 83 % (the
corpus 3.0 models, which never saw such input: 12-17 %), exact match 0.745 against 0.823 with it, so
``translate`` still adds the mark; an unknown name / noun (``helpers.tools.copy_eval``) is copied on
98 % and lands in the reference's place on 90 %.

No new pair repeats an English sentence already in the split (the shares are of the pairs drawn, a
collision is simply left unchanged).
"""

from __future__ import annotations

import random
from dataclasses import replace

from helpers.corpus import lexicon as L
from helpers.corpus.vocab import UNK, word_classes

NO_PUNCT_SHARE = 0.10
UNK_SHARE = 0.08
COPY_CLASSES = ("name", "noun")
# "go home" / 回家 is an adverb of place; a container is a measure word in Chinese (一 杯 茶), not a noun;
# a time word (this morning / 今天 早上) is not a thing a student names; a family word is a closed class
# whose possessor Chinese may drop (helped our mother -> 帮助 了 妈妈), so its <unk> would leave "our" unlinked
NOT_COPIED = frozenset({"home"} | {w for c in L.CONTAINERS.values() for w in c[:2]}
                       | {w for words, _zh, _t in L.TIMES.values() for w in words}
                       | {w for n in L.KIN.values() for w in (n.sg, n.pl)})
_END = (".", "?")

__all__ = ["NO_PUNCT_SHARE", "UNK_SHARE", "augment_train", "drop_final_punctuation", "unknown_word"]


def drop_final_punctuation(pair):
    """The pair without its final English "." / "?" (and that token's links); None if it has none."""
    if not pair.src or pair.src[-1] not in _END:
        return None
    last = len(pair.src) - 1
    return replace(pair, src=pair.src[:-1], sure=frozenset(link for link in pair.sure if link[0] != last),
                   possible=frozenset(link for link in pair.possible if link[0] != last))


def copyable_words(pair) -> list[str]:
    """The names and nouns of the pair that can become <unk> on both sides (one-to-one sure links)."""
    classes = word_classes()
    out = []
    for word in dict.fromkeys(pair.src):
        if classes.get(word) not in COPY_CLASSES or word in NOT_COPIED:
            continue
        positions = [i for i, w in enumerate(pair.src) if w == word]
        if all(_partner(pair, i) is not None for i in positions):
            out.append(word)
    return out


def _partner(pair, i):
    """The one Chinese position sure-linked to English position i, if that link is one-to-one."""
    js = [j for a, j in pair.sure if a == i]
    if len(js) != 1 or [a for a, j in pair.sure if j == js[0]] != [i]:
        return None
    return js[0]


def unknown_word(pair, word: str):
    """The pair with every occurrence of ``word`` (and its Chinese partner) replaced by <unk>."""
    positions = [i for i, w in enumerate(pair.src) if w == word]
    targets = {_partner(pair, i) for i in positions}
    zh_words = {pair.tgt[j] for j in targets}
    src = tuple(UNK if w == word else w for w in pair.src)
    tgt = tuple(UNK if j in targets else t for j, t in enumerate(pair.tgt))
    refs = tuple(tuple(UNK if t in zh_words else t for t in ref) for ref in pair.refs)
    return replace(pair, src=src, tgt=tgt, refs=refs)


def augment_train(pairs, seed: int, version: str, keep=lambda old, new: True) -> tuple:
    """The train pairs with the two shares above applied (same order, same count; deterministic).

    ``keep(old, new)`` may refuse a changed pair (e.g. one that leaves its length bucket)."""
    rng = random.Random(f"helpers.corpus/{version}/{seed}/augment")
    seen = {p.src for p in pairs}
    out = []
    for pair in pairs:
        new = pair
        if rng.random() < UNK_SHARE:
            words = copyable_words(new)
            if words:
                new = unknown_word(new, rng.choice(words))
        if rng.random() < NO_PUNCT_SHARE:
            new = drop_final_punctuation(new) or new
        if new is not pair and (new.src in seen or not keep(pair, new)):
            new = pair
        seen.add(new.src)
        out.append(new)
    return tuple(out)
