"""helpers.widgets.toys, headless: Spotlight (02) and RetrievalToy (04, Fig. 9-24)."""

import math

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from helpers.runtime.errors import EmptyInputError, HelpersError, UnknownWordError  # noqa: E402
from helpers.widgets import RetrievalToy, Spotlight  # noqa: E402
from helpers.widgets import toys as toys  # noqa: E402


def _png(widget):
    return bytes(widget.image.value)


# --------------------------------------------------------------------------- Spotlight
@pytest.fixture(scope="module")
def spot():
    return Spotlight()


@pytest.mark.parametrize("name, value", [("x", 0.2), ("y", 0.8), ("radius", 0.4)])
def test_spotlight_every_slider_changes_the_png(spot, name, value):
    before = _png(spot)
    getattr(spot, name).value = value
    assert _png(spot) != before


def test_spotlight_says_when_the_egret_is_out_of_focus():
    widget = Spotlight(x=0.1, y=0.9, radius=0.05)
    assert "白鹭不在焦点里" in widget.message.value
    widget.x.value, widget.y.value, widget.radius.value = 0.625, 0.43, 0.14
    assert "白鹭在焦点里" in widget.message.value


def test_spotlight_out_of_range_value_is_clamped_and_still_draws():
    widget = Spotlight()
    before = _png(widget)
    widget.x.value = 5.0
    assert widget.x.value == 1.0
    assert _png(widget) != before


def test_spotlight_accepts_its_own_image():
    widget = Spotlight(image=np.full((30, 40, 3), 200, dtype=np.uint8))
    assert _png(widget)


def test_spotlight_rejects_a_grey_image_with_a_helpers_error():
    with pytest.raises(HelpersError, match="RGB"):
        Spotlight(image=np.zeros((30, 40)))


def test_spotlight_display_bundle_has_a_static_png(spot):
    assert "image/png" in spot._repr_mimebundle_()


# --------------------------------------------------------------------------- the toy video site
def test_tokenize_takes_the_longest_vocabulary_word():
    assert toys.tokenize_query("机器翻译实战") == (["机器翻译", "实战"], [])


def test_tokenize_keeps_unknown_pieces_between_known_words():
    assert toys.tokenize_query("钢琴🐱 hello") == (["钢琴"], ["🐱", "hello"])


def test_bag_of_words_counts_repeats():
    vector = toys.bag_of_words(["钢琴", "钢琴", "入门"])
    assert vector[toys.VOCAB.index("钢琴")] == 2 and vector[toys.VOCAB.index("入门")] == 1 and vector.sum() == 3


def test_scores_are_word_overlaps_with_each_title():
    res = toys.retrieve("钢琴 入门")
    # titles: 可爱猫咪学钢琴, 小狗学游泳, 湖边白鹭捕鱼, 注意力入门教程, 机器翻译实战, 钢琴入门教程
    assert res.scores.tolist() == [1, 0, 0, 1, 0, 2]


def test_soft_alpha_matches_a_hand_computation():
    res = toys.retrieve("钢琴 入门", temperature=0.5)
    e = [math.exp(s / 0.5) for s in [1, 0, 0, 1, 0, 2]]
    assert np.allclose(res.alpha, [v / sum(e) for v in e])


def test_soft_result_is_the_alpha_weighted_sum_of_values_by_hand():
    res = toys.retrieve("钢琴 入门")
    e1, e0, e2 = math.e, 1.0, math.e**2
    z = 2 * e1 + 3 * e0 + e2
    animals = (e1 + e0 + e0) / z  # videos 1, 2, 3 are about animals
    nature = (0.5 * e0 + e0) / z  # video 2 half, video 3 fully
    assert res.result[0] == pytest.approx(animals) and res.result[3] == pytest.approx(nature)


def test_retrieve_rejects_zero_temperature():
    with pytest.raises(HelpersError, match="温度"):
        toys.retrieve("钢琴", temperature=0.0)


def test_retrieve_names_unknown_words_and_lists_known_ones():
    with pytest.raises(UnknownWordError, match="known words") as info:
        toys.retrieve("piano")
    assert info.value.words == ["piano"] and "钢琴" in str(info.value)


def test_retrieve_rejects_empty_query():
    with pytest.raises(EmptyInputError):
        toys.retrieve("   ")


# --------------------------------------------------------------------------- RetrievalToy
@pytest.fixture()
def toy():
    return RetrievalToy()


def test_toy_alpha_sums_to_one(toy):
    assert toy.last.alpha.sum() == pytest.approx(1.0)


def test_toy_hard_mode_gives_one_alpha_of_one_at_the_best_title(toy):
    toy.hard.value = True
    assert toy.last.alpha.tolist() == [0, 0, 0, 0, 0, 1]
    assert "只返回一个视频《钢琴入门教程》" in toy.result.value


def test_toy_lower_temperature_gives_larger_max_alpha(toy):
    toy.temperature.value = 2.0
    soft = toy.last.alpha.max()
    toy.temperature.value = 0.3
    assert toy.last.alpha.max() > soft


@pytest.mark.parametrize("name, value", [("query", "湖边 白鹭"), ("temperature", 0.2), ("hard", True)])
def test_toy_every_control_changes_the_png(toy, name, value):
    before = _png(toy)
    getattr(toy, name).value = value
    assert _png(toy) != before


def test_toy_result_table_shows_scores_and_alpha(toy):
    assert "<td>钢琴入门教程</td><td>2</td><td>0.467</td>" in toy.result.value


def test_toy_empty_query_gives_a_message_and_keeps_working(toy):
    toy.query.value = ""
    assert "查询为空" in toy.message.value
    toy.query.value = "湖边 白鹭"
    assert toy.last.best == 2 and "查询为空" not in toy.message.value


def test_toy_unknown_words_are_named_with_the_known_vocabulary(toy):
    toy.query.value = "hello 🐱"
    assert "hello" in toy.message.value and "🐱" in toy.message.value and "机器翻译" in toy.message.value
    toy.query.value = "小狗"
    assert toy.last.best == 1


def test_toy_escapes_html_in_the_query(toy):
    toy.query.value = "<script>alert(1)</script>钢琴"
    assert "<script>" not in toy.message.value and "&lt;script&gt;" in toy.message.value
    assert toy.last.words == ["钢琴"]


def test_toy_huge_query_gives_a_message_and_keeps_working(toy):
    toy.query.value = "钢琴" * 10_000
    assert "查询太长" in toy.message.value
    toy.query.value = "注意力"
    assert toy.last.best == 3


def test_toy_hard_tie_is_explained(toy):
    toy.hard.value = True
    toy.query.value = "入门"
    assert "并列" in toy.message.value and toy.last.alpha.tolist() == [0, 0, 0, 1, 0, 0]


def test_toy_display_bundle_has_a_static_png(toy):
    assert "image/png" in toy._repr_mimebundle_()


# --------------------------------------------------------------------------- TemperatureDemo (00)
def test_softmax_with_temperature_matches_a_hand_computation():
    # scores 0 and ln 3: e^0 = 1 and e^ln3 = 3, so α = [1/4, 3/4]; at τ = 0.5 the scores double: [1/10, 9/10]
    assert np.allclose(toys.softmax_with_temperature([0.0, math.log(3)], 1.0), [0.25, 0.75])
    assert np.allclose(toys.softmax_with_temperature([0.0, math.log(3)], 0.5), [0.1, 0.9])
    # a huge score does not overflow: the shift by the maximum keeps it finite
    assert np.allclose(toys.softmax_with_temperature([1000.0, 0.0], 1.0), [1.0, 0.0])


@pytest.mark.parametrize("bad", [[], [1.0, float("nan")], [[1.0, 2.0]]])
def test_softmax_with_temperature_refuses_bad_scores(bad):
    with pytest.raises(HelpersError, match="scores"):
        toys.softmax_with_temperature(bad, 1.0)


def test_temperature_demo_bars_follow_the_slider():
    from helpers.widgets import TemperatureDemo

    demo = TemperatureDemo([1.0, 3.0, 0.5, 2.0])
    first, png = demo.alpha.copy(), _png(demo)
    assert math.isclose(first.sum(), 1.0) and int(first.argmax()) == 1
    demo.temperature.value = 0.2
    assert demo.alpha.max() > first.max() and _png(demo) != png  # sharper, and redrawn
    assert [round(b.get_height(), 6) for b in demo._bars] == [round(a, 6) for a in demo.alpha]
    with pytest.raises(HelpersError):
        TemperatureDemo([1.0, 2.0], temperature=0.0)
