"""The syllabus data files of the corpus (helpers/corpus/data/*.tsv), the vocabulary file and the coverage.

What a teacher who adds a row needs to know is checked here: every row parses, every word has its
Chinese, every noun has a measure word or is a mass noun, the classes and places a row names exist;
the vocabulary file equals the tokens of the generated train split; the frequent English words that
the corpus leaves out are listed in data/left_out.tsv.
"""

from __future__ import annotations

import sys

import pytest

from helpers.corpus import lexicon as L
from helpers.corpus import vocab as V
from helpers.corpus import vocab_file
from helpers.corpus.coverage import coverage, left_out, top_words
from helpers.corpus.syllabus import DATA, read_tsv
from helpers.runtime.errors import HelpersError

WORD_FILES = ("nouns", "verbs", "intransitive", "adjectives", "places", "times", "names", "pronouns", "containers",
              "locatives", "there", "by", "frequency", "counting")
TOPIC_FILES = ("nouns", "verbs", "intransitive", "adjectives", "places", "times", "names")


# --------------------------------------------------------------------------- the data files
@pytest.mark.parametrize("name", WORD_FILES)
def test_every_data_file_starts_with_comments_and_every_row_has_its_chinese(name):
    text = (DATA / f"{name}.tsv").read_text(encoding="utf-8")
    assert text.startswith("# "), f"{name}.tsv should explain its columns in # comment lines"
    rows = read_tsv(name)
    assert len(rows) >= 2
    for row in rows:
        if name == "verbs" and row["key"] == "play":  # its Chinese comes with the object: 踢 足球, 弹 钢琴
            continue
        assert row.get("zh", row.get("measure_word")), f"{name}.tsv: a row without Chinese: {row}"
        assert all("\t" not in v for v in row.values())


@pytest.mark.parametrize("name", TOPIC_FILES)
def test_every_word_row_has_a_topic(name):
    assert [r for r in read_tsv(name) if not r["topic"]] == []


def test_every_noun_has_a_measure_word_or_is_a_mass_noun():
    for row in read_tsv("nouns"):
        mass = row["group"] == "mass"
        assert bool(row["measure_word"]) != mass, row
        assert row["en_pl"] and row["classes"], row
        assert row["gender"] in ("", "m", "f"), row
        assert set(row["containers"].split()) <= set(L.CONTAINERS), row


def test_noun_groups_and_keys_are_known_and_unique():
    rows = read_tsv("nouns")
    assert {r["group"] for r in rows} <= {"profession", "people", "kin", "animal", "thing", "bare_def", "mass", "other"}
    keys = [r["en_sg"] for r in rows]
    assert len(keys) == len(set(keys))


def test_verbs_name_known_tenses_places_and_object_classes():
    places = set(L.PLACES) | set(L.THERE)
    noun_classes = set().union(*(n.cls for n in L.NOUNS.values()))
    for name, tenses_col in (("verbs", "tenses"), ("intransitive", "tenses")):
        for row in read_tsv(name):
            assert set(row[tenses_col]) <= set("pdfgc") and row[tenses_col], row
            assert set(row["places"].split()) <= places, row
            assert row["base"] and row["s"] and row["past"] and row["ing"], row
            if name == "verbs":
                # every object class is carried by some noun (a typo would leave the verb without objects)
                assert set(row["objects"].split()) <= noun_classes, row


def test_adjectives_have_a_known_kind_and_a_noun_class_some_noun_has():
    noun_classes = set().union(*(n.cls for n in L.NOUNS.values()))
    for row in read_tsv("adjectives"):
        assert row["kind"] in ("color", "mono", "de", "hende", "human", "weather"), row
        assert row["noun_class"] in noun_classes, row


def test_times_links_point_inside_both_phrases():
    for row in read_tsv("times") + read_tsv("by"):
        n_en, n_zh = len(row["en"].split()), len(row["zh"].split())
        for link in row["links"].split():
            i, j = (int(x) for x in link.split("-"))
            assert 0 <= i < n_en and 0 <= j < n_zh, row


def test_the_lexicon_tables_read_from_the_data_files():
    """Hand-written rows of the old Python tables: the data files give exactly these structures."""
    book = L.NOUNS["book"]
    assert (book.sg, book.pl, book.zh, book.mw, book.mass) == ("book", "books", "书", "本", False)
    assert {"readable", "buyable", "borrowable"} <= book.cls
    assert L.NOUNS["tea"].conts == ("cup",) and L.NOUNS["tea"].mass and L.NOUNS["tea"].mw == ""
    assert L.NOUNS["milk"].conts == ("glass", "bottle")
    assert L.NOUNS["mother"].gender == "f" and "mother" in L.KIN
    assert "door" in L.BARE_DEF and L.BARE_DEF["door"].mw == "扇"
    assert L.PRONOUNS["he"] == ("he", "him", "his", "他", "3s", "m")
    assert L.NAMES["lucy"] == ("露西", "f")
    assert L.PLACES["school"] == (("school",), "at", "学校")
    assert L.PLACES["library"] == (("the", "library"), "in", "图书馆")
    assert L.GO_PLACES[:3] == ["school", "library", "park"]
    assert L.ADJECTIVES["expensive"] == ("贵", "hende", "expensive_ok")
    assert L.VERBS["eat"] == ("eat", "eats", "ate", "eating", "", "吃", "food massfood meal", "restaurant kitchen home",
                              "pdfg", "w")
    assert L.VERBS["look_for"][4] == "for"
    assert L.INTRANSITIVE["swim"] == ("swim", "swims", "swam", "swimming", "游泳", "pool beach sea", "pdfgc", "l")
    assert L.PARTICLE_I == {"get_up": "up"}
    assert L.PLAY_ZH["football"] == "踢" and L.PLAY_ZH["piano"] == "弹"
    assert L.COLORS_OF["cat"] == ("black", "white")
    assert L.TIMES["every_morning"] == (("every", "morning"), (("每天", (0,)), ("早上", (1,))), "p")
    assert L.TIMES["last_night"] == (("last", "night"), (("昨晚", (0, 1)),), "d")
    assert L.TIMES["after_school"] == (("after", "school"), (("放学", (1,)), ("后", (0,))), "pdf")
    assert L.BY["foot"] == (("on", "foot"), (("走路", (0, 1)),))
    assert L.CONTAINERS["bowl"] == ("bowl", "bowls", "碗")
    assert L.FREQ["sometimes"] == "有时候" and L.NUMBERS_ZH[2] == "两" and L.NUMBERS_EN[10] == "ten"
    assert "interesting" in L.NEG_BAD_ADJ and {"last_year", "next_week"} <= L.FAR_TIMES


def test_new_words_carry_their_measure_words_and_classes():
    assert (L.NOUNS["card"].zh, L.NOUNS["card"].mw) == ("卡片", "张")
    assert (L.NOUNS["game"].zh, L.NOUNS["game"].mw) == ("比赛", "场")
    assert (L.NOUNS["class"].zh, L.NOUNS["class"].mw, L.NOUNS["class"].pl) == ("课", "节", "classes")
    assert L.NOUNS["money"].mass and L.NOUNS["money"].zh == "钱"
    assert L.VERBS["tell"][2] == "told" and L.VERBS["tell"][5] == "讲"
    assert L.PLACES["china"] == (("china",), "in", "中国")
    assert L.TIMES["two_days_ago"] == (("two", "days", "ago"), (("两", (0,)), ("天", (1,)), ("前", (2,))), "d")


def test_a_data_row_with_too_many_cells_is_refused(tmp_path, monkeypatch):
    import helpers.corpus.syllabus as S

    (tmp_path / "broken.tsv").write_text("# comment\nen\tzh\nbook\t书\textra\n", encoding="utf-8")
    monkeypatch.setattr(S, "DATA", tmp_path)
    S.read_tsv.cache_clear()
    try:
        with pytest.raises(HelpersError, match="too many columns"):
            S.read_tsv("broken")
    finally:
        S.read_tsv.cache_clear()


# --------------------------------------------------------------------------- the vocabulary file
def test_vocab_file_equals_the_tokens_of_train():
    assert vocab_file.stale_message() == ""


def test_vocabularies_are_the_sorted_train_tokens_and_need_no_generation(monkeypatch):
    import helpers.corpus as C

    def refuse(seed):  # build_vocabs must not generate the corpus (translate and load_pretrained call it)
        raise AssertionError("build_vocabs generated the corpus")

    monkeypatch.setattr(C, "_generate", refuse)
    V.read_vocab_file.cache_clear()
    src, tgt = V.build_vocabs()
    assert src.itos[4:] == sorted(src.itos[4:]) and tgt.itos[4:] == sorted(tgt.itos[4:])
    assert {"i", "like", "tea", ".", "card", "china"} <= set(src.itos)
    assert {"我", "喜欢", "茶", "。", "卡片", "中国"} <= set(tgt.itos)


def test_a_stale_vocab_file_names_the_command_to_run(tmp_path, monkeypatch):
    stale = tmp_path / "vocab.json"
    stale.write_text('{"en": ["i", "tea"], "zh": ["我", "茶"]}', encoding="utf-8")
    monkeypatch.setattr(V, "VOCAB_FILE", stale)
    V.read_vocab_file.cache_clear()
    try:
        msg = vocab_file.stale_message()
    finally:
        V.read_vocab_file.cache_clear()
    assert "python -m helpers.corpus vocab" in msg and "stale" in msg


def test_a_missing_vocab_file_says_which_command_writes_it(tmp_path, monkeypatch):
    monkeypatch.setattr(V, "VOCAB_FILE", tmp_path / "nothing.json")
    V.read_vocab_file.cache_clear()
    try:
        with pytest.raises(HelpersError, match="python -m helpers.corpus vocab"):
            V.build_vocabs()
    finally:
        V.read_vocab_file.cache_clear()


def test_every_token_of_the_other_splits_occurs_in_train():
    assert vocab_file.unseen_tokens() == {}


# --------------------------------------------------------------------------- coverage of frequent English words
def test_coverage_counts_the_words_whose_tokens_are_all_in_the_vocabulary():
    vocab = V.Vocab(["the", "to", "and", "a", "is"], "en")
    # wordfreq 3.1.1, English: the to and of a in i is for that
    share, missing = coverage(10, vocab)
    assert missing == ["of", "in", "i", "for", "that"]
    assert share == 0.5


def test_coverage_without_wordfreq_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "wordfreq", None)  # import wordfreq -> ImportError
    with pytest.raises(HelpersError, match="wordfreq==3.1.1") as err:
        top_words(300)
    assert "需要" in str(err.value)


def test_every_frequent_word_left_out_is_listed_with_its_reason():
    listed = left_out()
    assert all(listed.values())
    _, missing = coverage(1000)
    assert [w for w in missing if w not in listed] == []

