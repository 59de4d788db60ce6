"""The committed vocabulary file ``helpers/corpus/data/vocab.json``: write it and check that it is fresh.

The vocabularies of the corpus are the tokens of the generated ``train`` split (sorted), so that a new
construction family brings its words with it and a model can produce every token it was trained on.
Generating the corpus takes seconds, and ``translate`` / ``load_pretrained`` need the vocabularies at
once, so the two token lists are kept in a data file that ``python -m helpers.corpus vocab`` writes and
``helpers.corpus.vocab.build_vocabs`` reads; ``stale_message`` (run by the tests and by
``python -m helpers.corpus check``) says when the file no longer matches the generator.
"""

from __future__ import annotations

import json

from helpers.corpus import SPLITS, load_corpus
from helpers.corpus.vocab import SPECIALS, VOCAB_FILE, read_vocab_file

COMMAND = "python -m helpers.corpus vocab"


def train_tokens(seed: int = 0) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(English tokens, Chinese tokens) of the train split, sorted, without the special tokens."""
    pairs = load_corpus("train", seed)
    en = {t for p in pairs for t in p.src} - set(SPECIALS)
    zh = {t for p in pairs for t in p.tgt} - set(SPECIALS)
    return tuple(sorted(en)), tuple(sorted(zh))


def vocab_text(seed: int = 0) -> str:
    en, zh = train_tokens(seed)
    return json.dumps({"format": "helpers.corpus.vocab/1", "command": COMMAND, "en": en, "zh": zh},
                      ensure_ascii=False, indent=0) + "\n"


def write_vocab_file() -> str:
    """Write data/vocab.json from the train split of seed 0; return its path."""
    VOCAB_FILE.write_text(vocab_text(), encoding="utf-8")
    read_vocab_file.cache_clear()
    return str(VOCAB_FILE)


def stale_message() -> str:
    """"" when data/vocab.json equals the generator's train tokens, else what differs and the command to run."""
    try:
        stored = read_vocab_file()
    except Exception as exc:  # a missing or broken file is stale too
        return f"{exc} 请运行 (run) `{COMMAND}`。"
    en, zh = train_tokens()
    diffs = []
    for lang, old, new in (("en", stored[0], en), ("zh", stored[1], zh)):
        added, gone = sorted(set(new) - set(old)), sorted(set(old) - set(new))
        if added or gone:
            diffs.append(f"{lang}: +{added[:10]} -{gone[:10]}")
    if not diffs:
        return ""
    return (f"词表文件过期 (stale vocabulary file) data/vocab.json 与生成的 train 不一致 ({'; '.join(diffs)})："
            f"请运行 (run) `{COMMAND}` 并提交 (commit) 该文件。")


def unseen_tokens(seed: int = 0) -> dict:
    """Tokens of valid / test / long / novel that train never shows: split -> (English, Chinese) sorted lists."""
    en, zh = (set(x) for x in train_tokens(seed))
    out = {}
    for split in SPLITS:
        if split == "train":
            continue
        pairs = load_corpus(split, seed)
        e = sorted({t for p in pairs for t in p.src} - en - set(SPECIALS))
        z = sorted({t for p in pairs for t in p.tgt} - zh - set(SPECIALS))
        if e or z:
            out[split] = (e, z)
    return out
