"""Pattern tables with slots: the small engine behind the families compare, modals, clauses, questions,
adverbs and possessives.

A pattern is one row of a data table (``data/<family>.tsv``): an English template, a Chinese
template, the links between their literal tokens ("0-1 2~0": sure / possible, template indices as in
``data/phrases.tsv``), other equally good Chinese phrasings (``alt``, "|" between them) and the slots'
constraints. A slot is an upper-case token that stands for a word group chosen at random:

* people: ``S`` the subject (a pronoun or a name), ``P`` its pronoun (tom -> he), ``OBJ`` its object
  pronoun (me, him), ``POSS`` its possessive (my, tom 's -> 我, 汤姆), ``PP`` the possessive of its pronoun (his),
  ``O`` another person's name; ``BE`` / ``WAS`` / ``DO`` / ``HAVE`` agree with ``S`` (am / is / are ...),
  and so does any token ``x/y`` (``like/likes``: the second form after he, she, tom);
* ``MINE`` a possessive pronoun of someone else than ``S`` (yours -> 你 的);
* things: ``N`` / ``NS`` a noun of the row's class (singular / plural), ``MW`` its measure word,
  ``M`` / ``MS`` / ``MW2`` a second, different noun, ``A`` "a" or "an" before the next word;
* ``VP`` an activity of ``data/activities.tsv`` in the row's form (base, s, d, g), ``T`` a time phrase
  of the lexicon, ``F`` a frequency adverb of the lexicon, ``ADJ`` an adjective of the row's "adjs"
  column (lexicon keys: tired -> 累), ``ADJ2`` another one.

A slot brings its own links: wherever it stands on both sides they are added (tom -> 汤姆, read a book
-> 看 书), so a row only links its literal tokens (and a one-sided slot such as ``MW``).
"""

from __future__ import annotations

from helpers.corpus.lexicon import ADJECTIVES, FREQ, NAMES, NOUNS, PRONOUNS, TIMES
from helpers.corpus.syllabus import read_tsv
from helpers.corpus.tokens import en, finish, zh

AGREE = {"BE": ("am", "is", "are"), "WAS": ("was", "was", "were"), "DO": ("do", "does", "do"),
         "HAVE": ("have", "has", "have")}
SUBJECTS = ("i", "you", "he", "she", "we", "they")
MINE = {"i": "mine", "you": "yours", "he": "his", "she": "hers", "we": "ours", "they": "theirs"}
# subject constraints of a row's "who" column
WHO = {
    "": SUBJECTS + tuple(NAMES), "sg": ("i", "you", "he", "she") + tuple(NAMES), "i": ("i",), "you": ("you",),
    "3s": ("he", "she") + tuple(NAMES), "name": tuple(NAMES), "pl": ("we", "they"), "we": ("we",),
    "f": ("she",) + tuple(k for k, v in NAMES.items() if v[1] == "f"),
    "m": ("he",) + tuple(k for k, v in NAMES.items() if v[1] == "m"),
    "one": ("i", "he", "she") + tuple(NAMES), "iwe": ("i", "we"), "youwe": ("you", "we", "they"),
    "notme": ("you", "he", "she", "we", "they") + tuple(NAMES),
    "notwe": ("you", "he", "she", "they") + tuple(NAMES),
    "notyou": ("i", "he", "she", "we", "they") + tuple(NAMES),
}


def parse_links(text):
    """"0-1 2~0" -> ([(0, 1)], [(2, 0)]): sure and possible links (English index, Chinese index)."""
    sure, poss = [], []
    for item in text.split():
        kind = "-" if "-" in item else "~"
        i, j = item.split(kind)
        (sure if kind == "-" else poss).append((int(i), int(j)))
    return sure, poss


def chunk(en_words, zh_words, sure=None, poss=()):
    """A slot's value: English words, Chinese words and the links between them (None: all sure)."""
    return (tuple(en_words), tuple(zh_words), None if sure is None else tuple(sure), tuple(poss))


# --------------------------------------------------------------------------- people
def person(key):
    """(subject, object, possessive, Chinese, form: 0 for i / 1 for he, she, a name / 2 otherwise, pronoun)."""
    if key in PRONOUNS:
        s, o, p, z, num, _ = PRONOUNS[key]
        return s, o, p, z, {"1s": 0, "3s": 1}.get(num, 2), key
    z, g = NAMES[key]
    return key, key, key, z, 1, "he" if g == "m" else "she"


def people_values(key, other="", mine=""):
    """The slots of a subject (S, P, OBJ, POSS, PP, agreement), another person (O) and pronoun (MINE)."""
    s, o, p, z, form, pro = person(key)
    ps, _, pp, pz, _, _ = person(pro)
    poss = chunk([s, "'s"], [z], [(0, 0)], [(1, 0)]) if key in NAMES else chunk([p], [z])
    po = person(pro)[1]  # a name's object pronoun: tom ... with him
    obj = chunk([po], [pz]) if key in NAMES else chunk([o], [z])
    values = {"S": chunk([s], [z]), "P": chunk([ps], [pz]), "OBJ": obj, "POSS": poss,
              "PP": chunk([pp], [pz]), "_form": form}
    if other:
        values["O"] = chunk([other], [NAMES[other][0]])
    if mine:
        values["MINE"] = chunk([MINE[mine]], [PRONOUNS[mine][3], "的"], [(0, 0)], [(0, 1)])
    return values


# --------------------------------------------------------------------------- things
def nouns_of(spec_text):
    """Noun keys of a row's "n" column: explicit lexicon keys, or "cls:<class>" for the countable nouns of a class."""
    keys = []
    for item in spec_text.split():
        if item.startswith("cls:"):
            keys += [k for k, n in NOUNS.items() if item[4:] in n.cls and n.mw and not n.mass]
        else:
            keys.append(item)
    return keys


def noun_values(key, prefix="N", mw="MW"):
    n = NOUNS[key]
    return {prefix: chunk([n.sg], [n.zh]), prefix + "S": chunk([n.pl], [n.zh]), mw: chunk([], [n.mw])}


def activities():
    return read_tsv("activities")


def activity_value(index, form, key):
    """The ``VP`` slot: row ``index`` of data/activities.tsv in form b / s (agreeing with the person
    ``key``: he reads, they read) / d / g, POSS agreeing with ``key`` too."""
    row = activities()[index]
    words = row["en"].split()
    _, _, _, _, third, pro = person(key)
    if form != "b" and (form != "s" or third == 1):  # "s" agrees: he reads, they read
        words[0] = row[form]
    pp, pz = person(pro)[2], person(pro)[3]
    words = [pp if w == "POSS" else w for w in words]
    zhw = [pz if w == "POSS" else w for w in row["zh"].split()]
    return chunk(words, zhw, *parse_links(row["links"]))


def activities_with(tag, form):
    """Indices of the activities that carry ``tag`` (every one for "") and have the form ``form``."""
    return [i for i, r in enumerate(activities())
            if (not tag or tag in r["tags"].split()) and (form == "b" or r[form])]


def time_value(key):
    words, zhs, _ = TIMES[key]
    return chunk(words, [w for w, _ in zhs], [(i, j) for j, (_, ii) in enumerate(zhs) for i in ii])


def times_of(text):
    """Time keys of a row's "t" column: explicit keys of the lexicon's TIMES, or "tense:<letter>"."""
    keys = []
    for item in text.split():
        keys += [k for k, v in TIMES.items() if item[6:] in v[2]] if item.startswith("tense:") else [item]
    return keys


# --------------------------------------------------------------------------- rows
def sample_row(rng, table, row=None):
    """A spec for one row of ``data/<table>.tsv`` (a random row unless given): its slots' choices."""
    rows = read_tsv(table)
    i = rng.randrange(len(rows)) if row is None else row
    r = rows[i]
    spec = {"table": table, "row": i, "who": rng.choice(WHO[r.get("who", "")])}
    spec["other"] = rng.choice([k for k in NAMES if k != spec["who"]])
    me = {spec["who"], person(spec["who"])[5]} | ({"i", "we"} if spec["who"] in ("i", "we") else set())
    spec["mine"] = rng.choice([k for k in MINE if k not in me])
    if r.get("n"):
        keys = nouns_of(r["n"])
        spec["n"] = rng.choice(keys)
        spec["m"] = rng.choice([k for k in keys if k != spec["n"]] or keys)
    if r.get("vp"):
        form, _, tag = r["vp"].partition(":")
        spec["vp"] = rng.choice(activities_with(tag, form))
    if r.get("t"):
        spec["t"] = rng.choice(times_of(r["t"]))
    if r.get("adjs"):
        spec["adj_key"] = rng.choice(r["adjs"].split())
        spec["adj_key2"] = rng.choice([a for a in r["adjs"].split() if a != spec["adj_key"]] or [spec["adj_key"]])
    spec["f"] = rng.choice(sorted(FREQ))
    return spec


def values_of(spec):
    """Every slot value of a spec (people, nouns, activity, time, frequency)."""
    r = read_tsv(spec["table"])[spec["row"]]
    values = people_values(spec["who"], spec.get("other", ""), spec.get("mine", ""))
    if spec.get("n"):
        values.update(noun_values(spec["n"]))
        values.update(noun_values(spec["m"], "M", "MW2"))
    if "vp" in spec:
        values["VP"] = activity_value(spec["vp"], r["vp"].partition(":")[0], spec["who"])
    if spec.get("t"):
        values["T"] = time_value(spec["t"])
    values["F"] = chunk([spec["f"]], [FREQ[spec["f"]]])
    if spec.get("adj_key"):
        values["ADJ"] = chunk([spec["adj_key"]], [ADJECTIVES[spec["adj_key"]][0]])
        values["ADJ2"] = chunk([spec["adj_key2"]], [ADJECTIVES[spec["adj_key2"]][0]])
    return values


def _word(t, values):
    """English words of a template token (agreement tokens resolved; "A" is resolved later)."""
    form = values["_form"]
    if t in AGREE:
        return [AGREE[t][form]]
    if "/" in t and len(t) > 1:
        return [t.split("/")[form == 1]]
    if t in values and t.isupper():
        return list(values[t][0])
    return [t]


def _zh_words(t, values):
    return list(values[t][1]) if t in values and t.isupper() and t != "_form" else [t]


def fill(en_t, zh_t, links_text, values):
    """English and Chinese tokens (``tokens.en`` / ``tokens.zh``) of two templates with their links."""
    E = [[en(w) for w in _word(t, values)] for t in en_t]
    flat = [e for group in E for e in group]
    for k, e in enumerate(flat):  # "A": a / an by the next word's sound
        if e[0] == "A":
            e[0] = "an" if k + 1 < len(flat) and flat[k + 1][0][0] in "aeiou" else "a"
    Z = [[[w, [], []] for w in _zh_words(t, values)] for t in zh_t]
    sure, poss = parse_links(links_text)
    for kind, pairs in ((1, sure), (2, poss)):
        for i, j in pairs:
            for e in E[i]:
                for z in Z[j]:
                    z[kind].append(e)
    for name in set(en_t) & set(zh_t):  # a slot on both sides brings its own links
        if not (name in values and name.isupper()):
            continue
        _, _, inner_sure, inner_poss = values[name]
        for i in [k for k, t in enumerate(en_t) if t == name]:
            for j in [k for k, t in enumerate(zh_t) if t == name]:
                if inner_sure is None:
                    for e in E[i]:
                        for z in Z[j]:
                            z[1].append(e)
                    continue
                for kind, pairs in ((1, inner_sure), (2, inner_poss)):
                    for a, b in pairs:
                        Z[j][b][kind].append(E[i][a])
    out = []
    for w, s, p in (z for group in Z for z in group):
        if w == "在" and out and out[-1][0] in ("在", "正在"):  # 正在 + 在 公园 散步 -> 正在 公园 散步
            out[-1][1].extend(s)
            out[-1][2].extend(p)
            continue
        out.append([w, s, p])
    return flat, [zh(w, s, p) for w, s, p in out]


def alternatives(alt_text, values):
    """Other Chinese phrasings of a row ("|" between them), slots filled."""
    out = []
    for alt in alt_text.split("|"):
        if alt.strip():
            words = [w for t in alt.split() for w in _zh_words(t, values)]
            out.append([zh(w) for k, w in enumerate(words)
                        if not (w == "在" and k and words[k - 1] in ("在", "正在"))])
    return out


def render_row(spec, values=None, tags=()):
    """(src, tgt, sure, possible, tags, refs) of a row spec; ``values`` overrides / adds slots."""
    r = read_tsv(spec["table"])[spec["row"]]
    vals = values_of(spec)
    vals.update(values or {})
    en_t = r["en"].split()
    question = en_t[-1] == "?"
    e, z = fill(en_t[:-1] if en_t[-1] in "?." else en_t, r["zh"].split(), r["links"], vals)
    row_tags = tuple(r.get("tag", "").split()) + tuple(tags)
    return finish(e, z, question=question, tags=row_tags, alternatives=alternatives(r["alt"], vals))
