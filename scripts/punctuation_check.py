"""Does a sentence typed without its final punctuation translate as it does with it? (Models 4.0 target: >= 95 % of test.)

Usage: ``python scripts/punctuation_check.py [MODEL ...]`` (default luong-concat). For each test pair it compares
``translate(model, sentence)`` with the translation of the same sentence without its final mark, once with
``translate``'s default (``complete_sentence`` adds "." or "?") and once for the model alone (``punctuate=False``).
Measured on 2026-12-02 with the corpus-4.0 luong-concat: 0.970 and 0.920.
"""

import sys

from helpers import load_pretrained, translate
from helpers.corpus import load_corpus


def main(names):
    test = load_corpus("test")
    for name in names:
        model = load_pretrained(name)
        same = same_raw = 0
        for pair in test:
            with_mark = translate(model, " ".join(pair.src)).text
            bare = " ".join(pair.src[:-1])
            same += translate(model, bare).text == with_mark
            same_raw += translate(model, bare, punctuate=False).text == with_mark
        print(f"{name}: same with translate's default {same / len(test):.3f}, model alone {same_raw / len(test):.3f}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["luong-concat"])
