"""Reading gold links written by hand in the corpus tests: ``"she-她 book#2-书"`` (``#k``: the k-th such token)."""


def token_index(tokens, word: str) -> int:
    """Position of ``word`` in ``tokens``; ``"book#2"`` is the second ``book``."""
    word, _, k = word.partition("#")
    hits = [i for i, t in enumerate(tokens) if t == word]
    return hits[int(k or 1) - 1]


def hand_links(pair, text: str, sep: str) -> set[tuple[int, int]]:
    """{(source index, target index)} from links ``en<sep>zh`` separated by spaces (``-`` sure, ``~`` possible)."""
    out = set()
    for link in text.split():
        en, zh = link.rsplit(sep, 1) if sep == "~" else link.split(sep, 1)
        out.add((token_index(pair.src, en), token_index(pair.tgt, zh)))
    return out
