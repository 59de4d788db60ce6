"""Input as students type it, unknown words taught and copied through attention (DESIGN §5, issues 28/29)."""

import numpy as np
import pytest
import torch

from helpers.corpus import Pair, Vocab, build_vocabs, load_corpus
from helpers.corpus.augment import copyable_words, drop_final_punctuation, unknown_word
from helpers.corpus.tokenizer import complete_sentence, tokenize_en, typed_tokens
from helpers.decode import translate
from helpers.runtime.errors import EmptyInputError, UnknownWordError
from helpers.train import make_model
from helpers.translation.copying import CopiedWord, copy_unknown, join_chinese


# --------------------------------------------------------------------------- tokenizer
@pytest.mark.parametrize("text, tokens", [
    ("What's your name?", ["what", "is", "your", "name", "?"]),
    ("Where's   Tom", ["where", "is", "tom"]),
    ("I'd like tea", ["i", "would", "like", "tea"]),
    ("There's a cat, here's a dog", ["there", "is", "a", "cat", ",", "here", "is", "a", "dog"]),
    ("Let's go, who's he", ["let", "us", "go", ",", "who", "is", "he"]),
    ("I'm ten and you're nine", ["i", "am", "ten", "and", "you", "are", "nine"]),
    ("It'll rain, it's cold, I can't swim", ["it", "will", "rain", ",", "it", "is", "cold", ",", "i", "can", "not",
                                              "swim"]),
    ("I have 3 cats and 21 fish", ["i", "have", "three", "cats", "and", "twenty", "one", "fish"]),
    ("twenty one, twenty-one, twenty-first", ["twenty", "one", ",", "twenty", "one", ",", "twenty", "first"]),
    ("100 books, 40 pens", ["one", "hundred", "books", ",", "forty", "pens"]),
    ("the 3rd day, my 21st birthday", ["the", "third", "day", ",", "my", "twenty", "first", "birthday"]),
    ("I get up at 6:30", ["i", "get", "up", "at", "six", "thirty"]),
    ("It's 7:00", ["it", "is", "seven", "o'clock"]),
    ("at two o'clock", ["at", "two", "o'clock"]),
    ("a well-known man", ["a", "well", "-", "known", "man"]),
    ("the year 2024", ["the", "year", "2024"]),
])
def test_typed_english_gives_the_tokens_of_the_clean_form(text, tokens):
    assert tokenize_en(text) == tokens


def test_the_surface_form_keeps_the_capitals_the_user_typed():
    assert typed_tokens("Xiaoming's  Cat") == [("xiaoming", "Xiaoming"), ("'s", "'s"), ("cat", "Cat")]


def test_the_unknown_word_token_reads_back_as_one_token():
    assert tokenize_en("my <unk> is here .") == ["my", "<unk>", "is", "here", "."]


@pytest.mark.parametrize("tokens, done", [
    (["tom", "ate", "an", "apple", "yesterday"], ["tom", "ate", "an", "apple", "yesterday", "."]),
    (["what", "is", "your", "name"], ["what", "is", "your", "name", "?"]),
    (["do", "you", "like", "tea"], ["do", "you", "like", "tea", "?"]),
    (["can", "you", "swim"], ["can", "you", "swim", "?"]),
    (["do", "not", "go"], ["do", "not", "go", "."]),  # an imperative, not a question
    (["what", "a", "nice", "day"], ["what", "a", "nice", "day", "."]),
    (["hello", ","], ["hello", "."]),
    (["i", "like", "tea", ".", ".", "."], ["i", "like", "tea", "."]),
    (["i", "like", "tea", "."], ["i", "like", "tea", "."]),
    (["is", "it", "red", "?"], ["is", "it", "red", "?"]),
])
def test_a_sentence_without_its_final_mark_gets_one(tokens, done):
    assert complete_sentence(tokens) == done


# --------------------------------------------------------------------------- copying
def test_unk_is_replaced_by_the_source_word_of_largest_attention():
    attention = np.array([[0.7, 0.1, 0.1, 0.1],   # 我 <- my
                          [0.1, 0.6, 0.2, 0.1],   # 叫 <- name
                          [0.1, 0.1, 0.2, 0.6],   # <unk> <- Xiaoming (position 3)
                          [0.2, 0.2, 0.3, 0.3]])  # 。
    tokens, copied = copy_unknown(["我", "叫", "<unk>", "。"], attention, ["my", "name", "is", "Xiaoming"])
    assert tokens == ["我", "叫", "Xiaoming", "。"]
    assert copied == [CopiedWord(tgt_index=2, src_index=3, word="Xiaoming")]


def test_an_attention_tie_copies_the_leftmost_word_and_the_eos_column_is_ignored():
    attention = np.array([[0.1, 0.4, 0.4, 0.9]])  # the last column is the source <eos>
    assert copy_unknown(["<unk>"], attention, ["a", "b", "c"])[0] == ["b"]


def test_without_attention_the_unk_stays():
    assert copy_unknown(["我", "<unk>"], None, ["i", "zork"]) == (["我", "<unk>"], [])


def test_chinese_text_joins_copied_words_without_spaces_except_between_two_latin_words():
    assert join_chinese(["我", "叫", "Xiaoming", "。"]) == "我叫Xiaoming。"
    assert join_chinese(["我", "去", "New", "York", "了", "。"]) == "我去New York了。"


# --------------------------------------------------------------------------- translate, scripted model
class Scripted(torch.nn.Module):
    """A model whose decoder emits a fixed token list and attends to given source positions."""

    class State:
        def index_select(self, rows):
            return self

    def __init__(self, src_vocab, tgt_vocab, script, focus, attention=True):
        super().__init__()
        self.w = torch.nn.Parameter(torch.zeros(1))
        self.src_vocab, self.tgt_vocab, self.meta = src_vocab, tgt_vocab, {}
        self.script, self.focus, self.attention = script, focus, attention
        self.seen_src = None

    def start(self, src, lens):
        self.seen_src, self.t, self.S = src[0].tolist(), 0, src.shape[1]
        return self.State()

    def step(self, prev, state):
        B = prev.shape[0]
        logits = torch.full((B, len(self.tgt_vocab)), -10.0)
        logits[:, self.script[min(self.t, len(self.script) - 1)]] = 10.0
        attn = torch.full((B, self.S), 0.1 / max(self.S - 1, 1))
        attn[:, min(self.focus[min(self.t, len(self.focus) - 1)], self.S - 1)] = 0.9
        self.t += 1
        return logits, (attn if self.attention else None), state


@pytest.fixture()
def scripted():
    src_vocab = Vocab(["my", "name", "is", "friend", "."], "en")
    tgt_vocab = Vocab(["我", "叫", "。"], "zh")
    script = [tgt_vocab[w] for w in ("我", "叫", "<unk>", "。", "<eos>")]
    return lambda attention=True: Scripted(src_vocab, tgt_vocab, script, [0, 1, 3, 4, 4], attention)


def test_translate_copies_an_unknown_name_with_its_capitals(scripted):
    model = scripted()
    t = translate(model, "My name is Xiaoming")
    assert t.src_tokens == ["my", "name", "is", "xiaoming", "."]
    assert model.seen_src == [4, 5, 6, 3, 8]  # xiaoming is <unk> (id 3); the final "." was added
    assert t.unknown == [3]
    assert t.tgt_tokens == ["我", "叫", "Xiaoming", "。"] and t.text == "我叫Xiaoming。"
    assert t.copied == [CopiedWord(2, 3, "Xiaoming")]


def test_beam_search_copies_too(scripted):
    t = translate(scripted(), "my name is xiaoming .", beam_size=2)
    assert t.text == "我叫xiaoming。" and t.copied == [CopiedWord(2, 3, "xiaoming")]


def test_the_model_without_attention_keeps_unk_and_says_so(scripted):
    t = translate(scripted(attention=False), "my name is xiaoming")
    assert t.text == "我叫<unk>。" and t.copied == []
    assert "<unk>" in t.note and "no attention" in t.note


def test_punctuate_false_translates_the_tokens_as_typed(scripted):
    model = scripted()
    translate(model, "my name is xiaoming", punctuate=False)
    assert model.seen_src == [4, 5, 6, 3]


# --------------------------------------------------------------------------- hostile input
@pytest.fixture(scope="module")
def tiny():
    return make_model("luong-dot", seed=2, emb_size=8, hidden_size=16)


@pytest.mark.parametrize("text, error", [
    ("", EmptyInputError), ("   ", EmptyInputError), ("!!!", EmptyInputError),
    ("123", UnknownWordError), ("你好", UnknownWordError),
])
def test_input_without_an_english_word_is_refused_bilingually(tiny, text, error):
    with pytest.raises(error) as info:
        translate(tiny, text)
    assert "(" in str(info.value) and any("\u4e00" <= ch <= "\u9fff" for ch in str(info.value))


def test_an_unknown_name_is_translated_not_refused(tiny):
    t = translate(tiny, "Xiaoming is my friend")
    assert t.src_tokens == ["xiaoming", "is", "my", "friend", "."] and t.unknown == [0]


def test_a_five_thousand_word_string_is_truncated(tiny):
    t = translate(tiny, " ".join(["Xiaoming", "likes", "tea"] * 1667))
    assert t.truncated and len(t.src_tokens) == 60 and t.unknown == list(range(0, 60, 3))


# --------------------------------------------------------------------------- corpus: taught, not refused
def _pair():
    # tom likes three cats .  ->  汤姆 喜欢 三 只 猫 。  (only 只 has no sure link; it is possible-linked to cats)
    sure = frozenset({(0, 0), (1, 1), (2, 2), (3, 4), (4, 5)})
    return Pair(("tom", "likes", "three", "cats", "."), ("汤姆", "喜欢", "三", "只", "猫", "。"), sure,
                sure | {(3, 3)}, refs=(("汤姆", "喜欢", "三", "只", "猫", "呢", "。"),))


def test_names_and_nouns_with_one_to_one_links_can_become_unk():
    assert copyable_words(_pair()) == ["tom", "cats"]


def test_unk_replaces_the_word_on_both_sides_and_keeps_links_and_the_measure_word():
    p = unknown_word(_pair(), "cats")
    assert p.src == ("tom", "likes", "three", "<unk>", ".")
    assert p.tgt == ("汤姆", "喜欢", "三", "只", "<unk>", "。")
    assert p.sure == _pair().sure and p.refs == (("汤姆", "喜欢", "三", "只", "<unk>", "呢", "。"),)


def test_dropping_the_final_mark_drops_its_link_and_keeps_the_chinese_mark():
    p = drop_final_punctuation(_pair())
    assert p.src == ("tom", "likes", "three", "cats") and p.tgt[-1] == "。"
    assert (4, 5) not in p.sure and (4, 5) not in p.possible and (3, 4) in p.sure


@pytest.fixture(scope="module")
def train():
    return load_corpus("train")


def test_about_eight_percent_of_train_carry_unk_linked_on_both_sides(train):
    with_unk = [p for p in train if "<unk>" in p.src]
    assert 0.06 <= len(with_unk) / len(train) <= 0.09
    for p in with_unk:
        for i in (i for i, w in enumerate(p.src) if w == "<unk>"):
            assert [p.tgt[j] for a, j in p.sure if a == i] == ["<unk>"]


def test_about_ten_percent_of_train_lack_the_final_mark_and_other_splits_keep_it(train):
    bare = [p for p in train if p.src[-1] not in (".", "?")]
    assert 0.08 <= len(bare) / len(train) <= 0.11
    assert all(p.tgt[-1] in ("。", "？") for p in bare)
    for split in ("valid", "test"):
        assert all(p.src[-1] in (".", "?") and "<unk>" not in p.src for p in load_corpus(split))


def test_unk_is_the_special_of_id_3_in_both_vocabularies():
    src_vocab, tgt_vocab = build_vocabs()
    assert src_vocab["<unk>"] == 3 and tgt_vocab["<unk>"] == 3
    assert src_vocab.itos.count("<unk>") == 1 and tgt_vocab.itos.count("<unk>") == 1


# --------------------------------------------------------------------------- copy evaluation
def test_a_copy_case_puts_a_new_word_on_both_sides_of_a_pair():
    from helpers.tools.copy_eval import NEW_WORDS, copy_cases

    sure = frozenset({(0, 0), (1, 1), (2, 2), (3, 3)})
    pair = Pair(("he", "likes", "tom", "."), ("他", "喜欢", "汤姆", "。"), sure, sure)
    [(src, tgt, j, new)] = copy_cases([pair])
    assert new in NEW_WORDS and new not in build_vocabs()[0]
    assert src == ["he", "likes", new, "."] and tgt == ["他", "喜欢", new, "。"] and j == 2


def test_the_model_without_attention_copies_nothing():
    from helpers.tools.copy_eval import copy_scores

    none = make_model("none", seed=0, emb_size=8, hidden_size=16)
    scores = copy_scores(none, load_corpus("test")[:40])
    assert scores["n"] > 0 and scores["copied"] == 0.0 and scores["landed"] == 0.0
