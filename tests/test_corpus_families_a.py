"""Construction families of corpus 4.0, part A: greetings, personal, numbers, clock, prices.

Each pattern has a hand-written pair (English tokens, Chinese tokens, sure links written as
"english-中文" word pairs, refs) rendered from a fixed spec; and 500 sampled specs per family render
with every English content word sure-linked and no empty token.
"""

import random

import pytest

from helpers.corpus.check import FUNCTION_EN
from helpers.corpus.families import FAMILIES, clock, greetings, numbers, personal, prices, render_family
from helpers.corpus.syllabus import read_tsv

YOU = {"k": "pron", "p": "you"}
ME = {"k": "pron", "p": "i"}
HE = {"k": "pron", "p": "he"}
SHE = {"k": "pron", "p": "she"}
WE = {"k": "pron", "p": "we"}
THEY = {"k": "pron", "p": "they"}
TOM = {"k": "name", "n": "tom"}
YOUR_MOTHER = {"k": "rel", "o": "you", "n": "mother", "g": "f"}
YOUR_FATHER = {"k": "rel", "o": "you", "n": "father", "g": "m"}


def check(pair, en, zh, sure, refs=()):
    src, tgt, s, poss, _tags, r = pair
    assert " ".join(src) == en
    assert " ".join(tgt) == zh
    assert sorted(f"{src[i]}-{tgt[j]}" for i, j in s) == sorted(sure.split())
    assert s <= poss
    assert sorted(" ".join(x) for x in r) == sorted(refs)


def row(table, **cells):
    return next(i for i, r in enumerate(read_tsv(table)) if all(r[k] == v for k, v in cells.items()))


# --------------------------------------------------------------------------- greetings
def test_greetings_please_open_the_window():
    check(greetings.render({"row": row("phrases", en="please open the window"), "name": ""}),
          "please open the window .", "请 打开 窗户 。", "please-请 open-打开 window-窗户 .-。", ["请 把 窗户 打开 。"])


def test_greetings_thank_you_with_a_name():
    check(greetings.render({"row": row("phrases", en="thank you"), "name": "tom"}),
          "thank you , tom .", "谢谢 你 ， 汤姆 。", "thank-谢谢 you-你 ,-， tom-汤姆 .-。",
          ["汤姆 ， 谢谢 。", "汤姆 ， 谢谢 你 。", "谢谢 ， 汤姆 。"])


def test_greetings_how_are_you_and_its_answer():
    check(greetings.render({"row": row("phrases", en="how are you ? i am fine , thank you"), "name": ""}),
          "how are you ? i am fine , thank you .", "你 好 吗 ？ 我 很 好 ， 谢谢 。",
          "you-你 how-好 ?-？ i-我 fine-好 ,-， thank-谢谢 you-谢谢 .-。", ["你 好 吗 ？ 我 很 好 ， 谢谢 你 。"])


def test_greetings_excuse_me_where_is_the_toilet():
    check(greetings.render({"row": row("phrases", en="excuse me , where is the toilet"), "name": ""}),
          "excuse me , where is the toilet ?", "打扰 一下 ， 洗手间 在 哪里 ？",
          "excuse-打扰 me-打扰 ,-， toilet-洗手间 where-哪里 ?-？",
          ["请 问 ， 洗手间 在 哪里 ？", "打扰 一下 ， 厕所 在 哪里 ？"])


# --------------------------------------------------------------------------- personal
def test_personal_name_question_and_answer_with_her():
    spec = {"pat": "name", "form": "qa", "subj": YOUR_MOTHER, "name": "anna"}
    check(personal.render(spec), "what is your mother 's name ? her name is anna .",
          "你 妈妈 叫 什么 名字 ？ 她 叫 安娜 。",
          "your-你 mother-妈妈 what-什么 name-名字 ?-？ her-她 name-叫 anna-安娜 .-。",
          ["你 妈妈 叫 什么 名字 ？ 她 的 名字 是 安娜 。", "你 妈妈 的 名字 是 什么 ？ 她 叫 安娜 。",
           "你 妈妈 的 名字 是 什么 ？ 她 的 名字 是 安娜 。"])


def test_personal_my_name_is():
    check(personal.render({"pat": "name", "form": "a", "subj": YOU, "name": "tom"}),
          "my name is tom .", "我 叫 汤姆 。", "my-我 name-叫 tom-汤姆 .-。", ["我 的 名字 是 汤姆 。"])


def test_personal_how_old_are_you_ten_years_old():
    spec = {"pat": "age", "form": "qa", "subj": YOU, "n": 10, "years": True}
    check(personal.render(spec), "how old are you ? i am ten years old .", "你 几 岁 ？ 我 十 岁 。",
          "how-几 old-岁 you-你 ?-？ i-我 ten-十 years-岁 old-岁 .-。", ["你 多 大 ？ 我 十 岁 。"])


def test_personal_an_adult_is_asked_duo_da():
    spec = {"pat": "age", "form": "qa", "subj": YOUR_FATHER, "n": 42, "years": False}
    check(personal.render(spec), "how old is your father ? he is forty two .", "你 爸爸 多 大 ？ 他 四十 二 岁 。",
          "how-多 old-大 your-你 father-爸爸 ?-？ he-他 forty-四十 two-二 .-。",
          ["你 爸爸 多 大 了 ？ 他 四十 二 岁 。"])


def test_personal_thirty_five_years_old():
    spec = {"pat": "age", "form": "a", "subj": YOUR_MOTHER, "n": 35, "years": True}
    check(personal.render(spec), "she is thirty five years old .", "她 三十 五 岁 。",
          "she-她 thirty-三十 five-五 years-岁 old-岁 .-。")


def test_personal_where_are_you_from():
    spec = {"pat": "from", "form": "qa", "subj": YOU, "place": row("origins", en="china")}
    check(personal.render(spec), "where are you from ? i am from china .", "你 来自 哪里 ？ 我 来自 中国 。",
          "where-哪里 you-你 from-来自 ?-？ i-我 from-来自 china-中国 .-。",
          ["你 来自 哪里 ？ 我 是 中国 人 。", "你 是 哪里 人 ？ 我 来自 中国 。", "你 是 哪里 人 ？ 我 是 中国 人 。"])


def test_personal_a_two_word_city():
    spec = {"pat": "from", "form": "a", "subj": SHE, "place": row("origins", en="new york")}
    check(personal.render(spec), "she is from new york .", "她 来自 纽约 。", "she-她 from-来自 new-纽约 york-纽约 .-。",
          ["她 是 纽约 人 。"])


def test_personal_what_does_your_father_do():
    spec = {"pat": "job", "form": "qa", "subj": YOUR_FATHER, "job": "doctor"}
    check(personal.render(spec), "what does your father do ? he is a doctor .",
          "你 爸爸 是 做 什么 的 ？ 他 是 一 名 医生 。",
          "what-什么 your-你 father-爸爸 do-做 ?-？ he-他 is-是 a-一 doctor-名 doctor-医生 .-。",
          ["你 爸爸 是 做 什么 的 ？ 他 是 医生 。", "你 爸爸 做 什么 工作 ？ 他 是 一 名 医生 。",
           "你 爸爸 做 什么 工作 ？ 他 是 医生 。"])


def test_personal_where_does_tom_live():
    spec = {"pat": "live", "form": "qa", "subj": TOM, "place": row("origins", en="beijing")}
    check(personal.render(spec), "where does tom live ? he lives in beijing .", "汤姆 住 在 哪里 ？ 他 住 在 北京 。",
          "where-哪里 tom-汤姆 live-住 ?-？ he-他 lives-住 in-在 beijing-北京 .-。")


def test_personal_favorite_color():
    spec = {"pat": "favorite", "form": "qa", "subj": YOU, "fav": row("favorites", cat="color", en="blue")}
    check(personal.render(spec), "what is your favorite color ? my favorite color is blue .",
          "你 最 喜欢 的 颜色 是 什么 ？ 我 最 喜欢 的 颜色 是 蓝色 。",
          "what-什么 is-是 your-你 favorite-最 favorite-喜欢 color-颜色 ?-？ "
          "my-我 favorite-最 favorite-喜欢 color-颜色 is-是 blue-蓝色 .-。",
          ["你 最 喜欢 的 颜色 是 什么 ？ 我 最 喜欢 蓝色 。", "你 最 喜欢 什么 颜色 ？ 我 最 喜欢 的 颜色 是 蓝色 。",
           "你 最 喜欢 什么 颜色 ？ 我 最 喜欢 蓝色 。"])


def test_personal_favorite_food_answer_alone():
    spec = {"pat": "favorite", "form": "a", "subj": SHE, "fav": row("favorites", cat="food", en="noodles")}
    check(personal.render(spec), "her favorite food is noodles .", "她 最 喜欢 的 食物 是 面条 。",
          "her-她 favorite-最 favorite-喜欢 food-食物 is-是 noodles-面条 .-。", ["她 最 喜欢 吃 面条 。"])


def test_personal_brothers_or_sisters():
    spec = {"pat": "siblings", "form": "qa", "subj": YOU, "sib": (1, 1)}
    check(personal.render(spec), "do you have any brothers or sisters ? yes , i have a brother and a sister .",
          "你 有 兄弟姐妹 吗 ？ 有 ， 我 有 一 个 哥哥 和 一 个 姐姐 。",
          "you-你 have-有 any-兄弟姐妹 brothers-兄弟姐妹 or-兄弟姐妹 sisters-兄弟姐妹 ?-？ yes-有 ,-， i-我 have-有 "
          "a-一 brother-个 brother-哥哥 and-和 a-一 sister-个 sister-姐姐 .-。",
          ["你 有 兄弟姐妹 吗 ？ 有 ， 我 有 一 个 弟弟 和 一 个 妹妹 。"])


def test_personal_only_child():
    spec = {"pat": "siblings", "form": "a", "subj": {"k": "name", "n": "lily"}, "sib": (0, 0)}
    check(personal.render(spec), "no , she is an only child .", "没有 ， 她 是 独生子女 。",
          "no-没有 ,-， she-她 is-是 only-独生子女 child-独生子女 .-。")


def test_personal_people_in_your_family():
    spec = {"pat": "family", "form": "qa", "subj": YOU, "n": 4}
    check(personal.render(spec),
          "how many people are there in your family ? there are four people in my family .",
          "你 家 有 几 口 人 ？ 我 家 有 四 口 人 。",
          "how-几 many-几 people-口 people-人 there-有 your-你 family-家 ?-？ "
          "there-有 four-四 people-口 people-人 my-我 family-家 .-。",
          ["你 家 有 几 口 人 ？ 我们 家 有 四 口 人 。"])


def test_personal_what_grade():
    spec = {"pat": "grade", "form": "qa", "subj": SHE, "n": 5}
    check(personal.render(spec), "what grade is she in ? she is in grade five .", "她 上 几 年级 ？ 她 上 五 年级 。",
          "what-几 grade-年级 she-她 ?-？ she-她 grade-年级 five-五 .-。", ["她 上 几 年级 ？ 她 读 五 年级 。"])


def test_personal_how_is_your_mother():
    spec = {"pat": "how", "form": "qa", "subj": YOUR_MOTHER, "very": True}
    pair = personal.render(spec)
    check(pair, "how is your mother ? she is very well , thank you .",
          "你 妈妈 好 吗 ？ 她 很 好 ， 谢谢 。",
          "your-你 mother-妈妈 how-好 ?-？ she-她 very-很 well-好 ,-， thank-谢谢 you-谢谢 .-。")
    assert {(0, 3), (4, 3)} <= pair[3]  # 吗 is possible to "how" and to the "?" of the question


# --------------------------------------------------------------------------- numbers
def test_numbers_i_have_twelve_books():
    check(numbers.render({"pat": "have", "subj": ME, "noun": "book", "n": 12}), "i have twelve books .",
          "我 有 十二 本 书 。", "i-我 have-有 twelve-十二 books-本 books-书 .-。")


def test_numbers_two_is_liang_before_a_measure_word():
    check(numbers.render({"pat": "have", "subj": TOM, "noun": "pen", "n": 2}), "tom has two pens .",
          "汤姆 有 两 支 笔 。", "tom-汤姆 has-有 two-两 pens-支 pens-笔 .-。")


def test_numbers_twenty_one_is_two_tokens_on_both_sides():
    pair = numbers.render({"pat": "have", "subj": WE, "noun": "apple", "n": 21})
    check(pair, "we have twenty one apples .", "我们 有 二十 一 个 苹果 。",
          "we-我们 have-有 twenty-二十 one-一 apples-个 apples-苹果 .-。")
    assert (2, 4) in pair[3] and (3, 4) in pair[3]  # the measure word is possible to the numeral


def test_numbers_twenty_two_before_a_measure_word_keeps_er():
    check(numbers.render({"pat": "have", "subj": ME, "noun": "book", "n": 22}), "i have twenty two books .",
          "我 有 二十 二 本 书 。", "i-我 have-有 twenty-二十 two-二 books-本 books-书 .-。")


def test_numbers_one_hundred_is_one_chinese_token():
    check(numbers.render({"pat": "have", "subj": ME, "noun": "book", "n": 100}), "i have one hundred books .",
          "我 有 一百 本 书 。", "i-我 have-有 one-一百 hundred-一百 books-本 books-书 .-。")


def test_numbers_twenty_three_plus_forty_eight():
    check(numbers.render({"pat": "math", "op": "plus", "a": 23, "b": 48, "q": False}),
          "twenty three plus forty eight is seventy one .", "二十 三 加 四十 八 等于 七十 一 。",
          "twenty-二十 three-三 plus-加 forty-四十 eight-八 is-等于 seventy-七十 one-一 .-。")


def test_numbers_ordinals_stop_at_twenty():
    with pytest.raises(ValueError):
        numbers.render({"pat": "row", "subj": HE, "n": 21})


def test_numbers_there_are_thirty_students_in_our_class():
    spec = {"pat": "there", "subj": ME, "place": "class", "noun": "student", "n": 30}
    check(numbers.render(spec), "there are thirty students in our class .", "我们 班 有 三十 名 学生 。",
          "there-有 thirty-三十 students-名 students-学生 our-我们 class-班 .-。", ["我们 班 有 三十 个 学生 。"])


def test_numbers_how_many_books_and_the_answer():
    spec = {"pat": "how_many", "subj": YOU, "noun": "book", "n": 12, "answer": True}
    check(numbers.render(spec), "how many books do you have ? i have twelve books .",
          "你 有 几 本 书 ？ 我 有 十二 本 书 。",
          "you-你 have-有 how-几 many-几 books-本 books-书 ?-？ i-我 have-有 twelve-十二 books-本 books-书 .-。",
          ["你 有 多少 本 书 ？ 我 有 十二 本 书 。"])


def test_numbers_three_plus_five():
    check(numbers.render({"pat": "math", "op": "plus", "a": 3, "b": 5, "q": False}), "three plus five is eight .",
          "三 加 五 等于 八 。", "three-三 plus-加 five-五 is-等于 eight-八 .-。")


def test_numbers_what_is_seven_minus_four():
    check(numbers.render({"pat": "math", "op": "minus", "a": 7, "b": 4, "q": True}), "what is seven minus four ?",
          "七 减 四 等于 几 ？", "seven-七 minus-减 four-四 is-等于 what-几 ?-？", ["七 减 四 等于 多少 ？"])


def test_numbers_third_row():
    check(numbers.render({"pat": "row", "subj": HE, "n": 3}), "he sits in the third row .", "他 坐 在 第三 排 。",
          "he-他 sits-坐 in-在 third-第三 row-排 .-。")


def test_numbers_twelfth_floor():
    check(numbers.render({"pat": "floor", "subj": ME, "n": 12}), "i live on the twelfth floor .", "我 住 在 十二 楼 。",
          "i-我 live-住 on-在 twelfth-十二 floor-楼 .-。", ["我 住 在 第十二 层 。"])


def test_numbers_the_second_day_moves_before_the_verb():
    check(numbers.render({"pat": "day", "subj": WE, "n": 2, "place": "zoo"}), "we went to the zoo on the second day .",
          "我们 第二 天 去 了 动物园 。", "we-我们 second-第二 day-天 on-天 went-去 zoo-动物园 .-。")


def test_numbers_the_first_lesson():
    spec = {"pat": "lesson", "n": 1, "subject": [r["en"] for r in numbers._subjects()].index("math")}
    check(numbers.render(spec), "the first lesson is math .", "第一 节 课 是 数学 课 。",
          "first-第一 lesson-节 lesson-课 is-是 math-数学 .-。", ["第一 节 课 是 数学 。"])


# --------------------------------------------------------------------------- clock
def _routine(text):
    return row("routines", en=text)


def test_clock_i_get_up_at_six_thirty():
    spec = {"pat": "at", "subj": ME, "act": _routine("get up"), "time": {"h": 6, "form": "thirty", "m": 0}}
    check(clock.render(spec), "i get up at six thirty .", "我 六 点 半 起床 。",
          "i-我 six-六 thirty-半 get-起床 up-起床 .-。", ["我 六 点 三十 分 起床 。"])


def test_clock_every_day_and_o_clock():
    spec = {"pat": "at", "subj": TOM, "act": _routine("have breakfast"), "every": True,
            "time": {"h": 7, "form": "oclock", "m": 0}}
    check(clock.render(spec), "tom has breakfast at seven o'clock every day .", "汤姆 每天 七 点 吃 早饭 。",
          "tom-汤姆 every-每天 day-每天 seven-七 o'clock-点 has-吃 breakfast-早饭 .-。")


def test_clock_a_quarter_past_four():
    spec = {"pat": "at", "subj": THEY, "act": _routine("go home"), "time": {"h": 4, "form": "quarter", "m": 0}}
    check(clock.render(spec), "they go home at a quarter past four .", "他们 四 点 一 刻 回 家 。",
          "they-他们 four-四 past-点 a-一 quarter-刻 go-回 home-家 .-。", ["他们 四 点 十五 分 回 家 。"])


def test_clock_what_time_do_you_go_to_bed():
    spec = {"pat": "when", "subj": YOU, "act": _routine("go to bed"), "time": {"h": 9, "form": "oclock", "m": 0}}
    check(clock.render(spec), "what time do you go to bed ? i go to bed at nine o'clock .",
          "你 几 点 睡觉 ？ 我 九 点 睡觉 。",
          "you-你 what-几 time-点 go-睡觉 bed-睡觉 ?-？ i-我 nine-九 o'clock-点 go-睡觉 bed-睡觉 .-。")


def test_clock_what_time_is_it_half_past_eight():
    spec = {"pat": "what_time", "time": {"h": 8, "form": "half", "m": 0}}
    check(clock.render(spec), "what time is it ? it is half past eight .", "现在 几 点 ？ 现在 八 点 半 。",
          "it-现在 what-几 time-点 ?-？ it-现在 eight-八 past-点 half-半 .-。", ["现在 几 点 了 ？ 现在 八 点 半 。"])


def test_clock_two_fifteen():
    spec = {"pat": "what_time", "time": {"h": 2, "form": "min", "m": 15}}
    check(clock.render(spec), "what time is it ? it is two fifteen .", "现在 几 点 ？ 现在 两 点 十五 分 。",
          "it-现在 what-几 time-点 ?-？ it-现在 two-两 fifteen-十五 .-。",
          ["现在 几 点 了 ？ 现在 两 点 十五 分 。", "现在 几 点 ？ 现在 两 点 一 刻 。"])


def test_clock_on_saturday_moves_before_the_verb():
    spec = {"pat": "on_day", "subj": WE, "act": _routine("play football"), "day": 5}
    check(clock.render(spec), "we play football on saturday .", "我们 星期六 踢 足球 。",
          "we-我们 saturday-星期六 on-星期六 play-踢 football-足球 .-。")


def test_clock_sunday_has_two_names():
    spec = {"pat": "on_day", "subj": SHE, "act": _routine("watch tv"), "day": 6}
    check(clock.render(spec), "she watches tv on sunday .", "她 星期天 看 电视 。",
          "she-她 sunday-星期天 on-星期天 watches-看 tv-电视 .-。", ["她 星期日 看 电视 。"])


def test_clock_in_summer():
    spec = {"pat": "in_month", "subj": THEY, "act": _routine("go swimming"), "season": True, "when": 1}
    check(clock.render(spec), "they go swimming in summer .", "他们 夏天 去 游泳 。",
          "they-他们 summer-夏天 go-去 swimming-游泳 .-。")


def test_clock_what_day_is_it_today():
    check(clock.render({"pat": "what_day", "day": 0, "which": "q"}), "what day is it today ? it is monday .",
          "今天 星期 几 ？ 今天 星期一 。", "it-今天 today-今天 day-星期 what-几 ?-？ it-今天 monday-星期一 .-。",
          ["今天 星期 几 ？ 今天 是 星期一 。"])


def test_clock_tomorrow_is_friday():
    check(clock.render({"pat": "what_day", "day": 4, "which": "tomorrow"}), "tomorrow is friday .",
          "明天 是 星期五 。", "tomorrow-明天 is-是 friday-星期五 .-。", ["明天 星期五 。"])


def test_clock_it_is_cold_in_winter():
    check(clock.render({"pat": "weather", "season": True, "when": 3, "very": False}), "it is cold in winter .",
          "冬天 天气 很 冷 。", "winter-冬天 it-天气 cold-冷 .-。", ["冬天 很 冷 。"])


def test_clock_my_birthday_is_on_may_fourth():
    spec = {"pat": "birthday", "subj": ME, "month": 4, "date": 4, "q": False}
    check(clock.render(spec), "my birthday is on may fourth .", "我 的 生日 是 五月 四 号 。",
          "my-我 birthday-生日 is-是 may-五月 on-五月 fourth-四 .-。", ["我 的 生日 是 五月 四 日 。"])


def test_clock_when_is_your_birthday():
    spec = {"pat": "birthday", "subj": ME, "month": 9, "date": 21, "q": True}
    check(clock.render(spec), "when is your birthday ? my birthday is on october twenty first .",
          "你 的 生日 是 几 月 几 号 ？ 我 的 生日 是 十月 二十 一 号 。",
          "your-你 birthday-生日 is-是 when-几 when-月 when-几 when-号 ?-？ "
          "my-我 birthday-生日 is-是 october-十月 on-十月 twenty-二十 first-一 .-。",
          ["你 的 生日 是 几 月 几 号 ？ 我 的 生日 是 十月 二十 一 日 。"])


def test_clock_may_twenty_second_keeps_er():
    spec = {"pat": "birthday", "subj": HE, "month": 4, "date": 22, "q": False}
    check(clock.render(spec), "his birthday is on may twenty second .", "他 的 生日 是 五月 二十 二 号 。",
          "his-他 birthday-生日 is-是 may-五月 on-五月 twenty-二十 second-二 .-。",
          ["他 的 生日 是 五月 二十 二 日 。"])


def test_clock_seven_forty_five():
    spec = {"pat": "what_time", "time": {"h": 7, "form": "min", "m": 45}}
    check(clock.render(spec), "what time is it ? it is seven forty five .", "现在 几 点 ？ 现在 七 点 四十 五 分 。",
          "it-现在 what-几 time-点 ?-？ it-现在 seven-七 forty-四十 five-五 .-。",
          ["现在 几 点 了 ？ 现在 七 点 四十 五 分 。", "现在 几 点 ？ 现在 七 点 三 刻 。"])


def test_clock_twelve_months_in_a_year():
    check(clock.render({"pat": "facts", "month": -1}), "there are twelve months in a year .",
          "一 年 有 十二 个 月 。", "a-一 year-年 there-有 twelve-十二 months-个 months-月 .-。")


def test_clock_days_in_may():
    check(clock.render({"pat": "facts", "month": 4}), "there are thirty one days in may .", "五月 有 三十 一 天 。",
          "may-五月 there-有 thirty-三十 one-一 days-天 .-。")


def test_clock_which_season_do_you_like_best():
    spec = {"pat": "best", "subj": YOU, "season": 2}
    check(clock.render(spec), "which season do you like best ? i like autumn best .",
          "你 最 喜欢 哪个 季节 ？ 我 最 喜欢 秋天 。",
          "you-你 best-最 like-喜欢 which-哪个 season-季节 ?-？ i-我 best-最 like-喜欢 autumn-秋天 .-。")


# --------------------------------------------------------------------------- prices
def _item(noun):
    return row("prices", noun=noun)


def test_prices_how_much_is_this_shirt_and_the_answer():
    spec = {"pat": "how_much", "item": _item("shirt"), "dem": "this", "price": 50, "answer": True}
    check(prices.render(spec), "how much is this shirt ? it is fifty yuan .",
          "这 件 衬衫 多少 钱 ？ 这 件 五十 块 钱 。",
          "this-这 shirt-件 shirt-衬衫 how-多少 much-多少 ?-？ it-这 fifty-五十 yuan-块 .-。",
          ["这 件 衬衫 多少 钱 ？ 五十 块 钱 。", "这 件 衬衫 多少 钱 ？ 五十 元 。", "这 件 衬衫 多少 钱 ？ 这 件 五十 元 。"])


def test_prices_how_much_are_these_apples():
    spec = {"pat": "how_much", "item": _item("apple"), "dem": "these", "price": 10, "answer": False}
    check(prices.render(spec), "how much are these apples ?", "这些 苹果 多少 钱 ？",
          "these-这些 apples-苹果 how-多少 much-多少 ?-？")


def test_prices_this_book_costs_twenty_yuan():
    spec = {"pat": "costs", "item": _item("book"), "dem": "this", "verb": "costs", "price": 20}
    check(prices.render(spec), "this book costs twenty yuan .", "这 本 书 要 二十 块 钱 。",
          "this-这 book-本 book-书 costs-要 twenty-二十 yuan-块 .-。", ["这 本 书 二十 块 钱 。", "这 本 书 二十 元 。"])


def test_prices_that_pen_is_two_yuan():
    spec = {"pat": "costs", "item": _item("pen"), "dem": "that", "verb": "is", "price": 2}
    check(prices.render(spec), "that pen is two yuan .", "那 支 笔 两 块 钱 。",
          "that-那 pen-支 pen-笔 two-两 yuan-块 .-。", ["那 支 笔 两 元 。"])


def test_prices_i_want_to_buy_two_shirts():
    spec = {"pat": "buy", "subj": ME, "item": _item("shirt"), "n": 2, "price": 100}
    check(prices.render(spec), "i want to buy two shirts .", "我 想 买 两 件 衬衫 。",
          "i-我 want-想 buy-买 two-两 shirts-件 shirts-衬衫 .-。", ["我 想要 买 两 件 衬衫 。"])


def test_prices_she_wants_to_buy_an_umbrella():
    spec = {"pat": "buy", "subj": SHE, "item": _item("umbrella"), "n": 1, "price": 20}
    check(prices.render(spec), "she wants to buy an umbrella .", "她 想 买 一 把 伞 。",
          "she-她 wants-想 buy-买 an-一 umbrella-把 umbrella-伞 .-。", ["她 想要 买 一 把 伞 。"])


def test_prices_bought_for_fifty_yuan_moves_the_price_before_the_verb():
    spec = {"pat": "spent", "subj": ME, "item": _item("shirt"), "n": 1, "price": 50}
    check(prices.render(spec), "i bought a shirt for fifty yuan .", "我 花 五十 块 钱 买 了 一 件 衬衫 。",
          "i-我 fifty-五十 yuan-块 bought-买 a-一 shirt-件 shirt-衬衫 .-。", ["我 用 五十 块 钱 买 了 一 件 衬衫 。"])


def test_prices_seventy_five_yuan():
    spec = {"pat": "money", "subj": ME, "item": 0, "price": 75}
    check(prices.render(spec), "i have seventy five yuan .", "我 有 七十 五 块 钱 。",
          "i-我 have-有 seventy-七十 five-五 yuan-块 .-。", ["我 有 七十 五 元 。"])


def test_prices_tom_has_twenty_yuan():
    spec = {"pat": "money", "subj": TOM, "item": 0, "price": 20}
    check(prices.render(spec), "tom has twenty yuan .", "汤姆 有 二十 块 钱 。",
          "tom-汤姆 has-有 twenty-二十 yuan-块 .-。", ["汤姆 有 二十 元 。"])


# --------------------------------------------------------------------------- sampled specs
@pytest.mark.parametrize("family", ["greetings", "personal", "numbers", "clock", "prices"])
def test_sampled_specs_link_every_content_word(family):
    assert family in FAMILIES
    module = {"greetings": greetings, "personal": personal, "numbers": numbers, "clock": clock, "prices": prices}[family]
    rng = random.Random(f"families-a/{family}")
    for _ in range(500):
        spec = module.sample(rng)
        spec["family"] = family
        src, tgt, sure, poss, _tags, refs = render_family(spec)
        assert 3 <= len(src) <= 20, src
        assert all(t.strip() for t in src + tgt) and all(t.strip() for r in refs for t in r), (src, tgt, refs)
        assert sure <= poss
        linked = {i for i, _ in sure}
        missing = [w for i, w in enumerate(src) if i not in linked and w not in FUNCTION_EN]
        assert not missing, (src, tgt, missing)
        assert tgt[-1] in "。？" and all(r[-1] == tgt[-1] for r in refs), (tgt, refs)
