"""Chain rendering: how the clauses of a small story are joined in English and in Chinese (corpus 3.0).

``render_chain(items, tags)`` renders ``[clause, conn, clause, conn, clause, ...]`` (a spec
``{"chain": [...]}``, see ``helpers.corpus.grammar.render``). The meaning side
(``helpers.corpus.stories``) decides the relation between two clauses and whether the subject
continues; this module turns that into the words a native writer uses:

* **A subject that continues is dropped in Chinese** (clause flag ``"drop"``): he went to the library
  , and then he read a book -> 他 去 了 图书馆 ， 然后 看 了 一 本 书. The English pronoun then has no
  Chinese token and no sure link (nothing in the Chinese translates it). With "and" the English may
  drop it as well (``"en_drop"``: he went to the park and played football).
* **Connectives follow the relation** (``CONNS``): and_then -> 然后, after_that -> 接着, finally ->
  最后 (sequence);
  so -> 所以, so_jiu -> 就 after the subject (an immediate consequence), because -> 因为 (cause);
  and_also -> 还 (one more thing by the same person), too -> 也 (the same thing by another person);
  but -> 但是, but_kes -> 可是 (a plan that did not happen), while -> 而 (two parallel things
  contrasted); cons -> ， + 就 after an "if" clause (如果 明天 下雨 ， 我们 就 ...). A plain "and" is a
  bare ， only where Chinese joins two steps without a word (他 去 了 公园 ， 踢 了 足球).
* "serial" joins a going and what one does there in one Chinese clause, as a native writes it:
  went to the park and played football -> 去 公园 踢 了 足球 ("and" has no Chinese token).
* Clause flags: ``"first"`` (she first went to the market -> 她 先 去 了 市场), ``"if"`` (if it rains
  tomorrow -> 如果 明天 下雨).
* A ``{"type": "weather"}`` clause (it rained this morning -> 今天 早上 下雨 了; it was cold ->
  天气 很 冷) is rendered here; every other clause by ``helpers.corpus.grammar.render_clause``.

Alignment: a connective word is sure to its English word (then-然后, so-所以, so-就, also-还, also-也,
while-而, if-如果, after-接着); the English "and" before it and "that" of "after that" are possible.
"""

from __future__ import annotations

from helpers.corpus.grammar import _e, _time_tokens, _z, render_clause
from helpers.corpus.grammar_extra import render_exist
from helpers.corpus.lexicon import NOUNS

KIN = {k for k, n in NOUNS.items() if "kin" in n.cls}

# conn key: (English words after the comma, Chinese word, where it goes: "front" = after ， before the
# subject, "adv" = after the (possibly dropped) subject, "" = none; index of the English word it is sure to)
CONNS = {
    "and": (("and",), "", "", None),
    "serial": (("and",), "", "", None),  # went to the park and played football -> 去 公园 踢 了 足球 (no ，)
    "and_also": (("and",), "还", "adv", None),  # "also" comes with the clause: and she also bought ...
    "too": (("and",), "也", "adv", None),  # and lily also likes tea -> ， 莉莉 也 喜欢 茶
    "and_then": (("and", "then"), "然后", "front", 1),
    "after_that": (("and", "after", "that"), "之后", "front", 1),
    "later": (("and", "later"), "后来", "front", 1),  # a step some time later: ， 后来 去 超市 买 了 ...
    "finally": (("and", "finally"), "最后", "front", 1),  # the last step: ， 最后 回 家 了
    "so": (("so",), "所以", "front", 0),
    "so_jiu": (("so",), "就", "adv", 0),
    "because": (("because",), "因为", "front", 0),
    "but": (("but",), "但是", "front", 0),
    "but_kes": (("but",), "可是", "front", 0),
    "while": (("while",), "而", "front", 0),
    "cons": ((), "就", "adv", None),  # if ..., we will not go -> 如果 ... ， 我们 就 不 会 去
    "answer": ((), "", "", None),  # where did tom go ? he went to the zoo -> ？ 他 去 了 动物园
    "answer_because": (("because",), "因为", "front", 0),  # why ... ? because she likes books
}
# A new sentence (English ". ", Chinese 。): ``"stop"`` or ``"stop:LEAD"``, LEAD a word that opens it:
# (English words, Chinese words, index of the English word each Chinese word is sure to)
LEADS = {
    "": ((), ()),
    "then": (("then",), (("然后", (0,)),)),
    "after_that": (("after", "that"), (("之后", (0,)),)),
    "later": (("later",), (("后来", (0,)),)),
    "afternoon": (("in", "the", "afternoon"), (("下午", (2,)),)),
    "evening": (("in", "the", "evening"), (("晚上", (2,)),)),
    "after_dinner": (("after", "dinner"), (("晚饭", (1,)), ("后", (0,)))),
    "after_school": (("after", "school"), (("放学", (1,)), ("后", (0,)))),
    "weekends": (("on", "weekends"), (("周末", (0, 1)),)),
}
# Chinese phrasings of a connective that are as good as the one rendered (they become the pair's refs):
# 所以 / 就 (a consequence), 然后 / 之后 (the next step), 但是 / 可是 (a contrast)
ZH_ALTS = {"so": ("就", "adv"), "so_jiu": ("所以", "front"), "and_then": ("之后", "front"),
           "after_that": ("然后", "front"), "but": ("可是", "front"), "but_kes": ("但是", "front"),
           "stop:then": ("之后", "lead"), "stop:after_that": ("然后", "lead")}
EN_DROP_OK = {"and", "and_also", "and_then", "serial"}  # English drops a subject only in coordinated verb phrases
# words of this module, for the vocabularies (helpers.corpus.vocab)
DISCOURSE_EN = ("and then after that finally so because but while also first if it rain rains rained be cold hot "
                "weather later in the afternoon evening dinner school .").split()
DISCOURSE_ZH = ("还 也 然后 之后 后来 最后 所以 就 因为 但是 可是 而 先 如果 下雨 天气 冷 热 会 很 了 ， 。 "
                "下午 晚上 晚饭 后 放学 觉得 上班 她们 周末").split()
WEATHER = {"cold": "冷", "hot": "热"}


def render_weather(c, tags):
    """it rained this morning -> 今天 早上 下雨 了; if it rains tomorrow -> 如果 明天 下雨; it was cold -> 天气 很 冷."""
    w, tense = c["w"], c.get("tense", "p")
    e_it = _e("it")
    t_en, t_zh = _time_tokens(c["time"], tags) if c.get("time") else ([], [])
    if w == "rain":
        e_v = _e({"p": "rains", "d": "rained", "f": "rain"}[tense])
        en = [e_it] + ([_e("will")] if tense == "f" else []) + [e_v]
        zh = t_zh + ([_z("会", (en[1],))] if tense == "f" else []) + [_z("下雨", (e_it, e_v))]
        if tense == "d":
            zh.append(_z("了", (), (e_v,)))
            tags.add("aspect_le")
        return en + t_en, zh
    e_be = _e({"p": "is", "d": "was", "f": "be"}[tense])
    e_adj = _e(w)
    en = [e_it] + ([_e("will")] if tense == "f" else []) + [e_be, e_adj]
    zh = t_zh + [_z("天气", (e_it,))] + ([_z("会", (en[1],), (e_be,))] if tense == "f" else [])
    zh += [_z("很", (), (e_be,)), _z(WEATHER[w], (e_adj,))]
    return en + t_en, zh


def _clause(c, tags, last):
    """Render one chain clause with its discourse flags turned into the grammar's hooks."""
    c = dict(c)
    if not last or any(z[0] in ("还", "也") for z in c.get("_adv", ())):
        c["_mid"] = True  # in a chain: 然后 他 买 了 肉 ， ... (not 买 肉 了 ， ...); 还 看 了 电视 。
    c["_drop"] = c.get("drop", False)
    c["_en_drop"] = c.get("en_drop", False)
    if c["_drop"] and c.get("tense") == "f" and not c.get("neg"):
        c["_no_hui"] = True  # 明天 我们 会 去 公园 ， 然后 踢 足球 (one 会 is enough)
    if c.get("first"):  # she first went to the market -> 她 先 去 了 市场 (after a time word: 每天 早上 先)
        e = _e("first")
        c["_adv_en"] = tuple(c.get("_adv_en", ())) + (e,)
        c["_adv2"] = (_z("先", (e,)),)
    subj = c.get("subj") or {}
    for key in ("obj", "io", "with"):  # we helped our mother -> 我们 帮助 了 妈妈 (not 我们 ... 我们 妈妈)
        np = c.get(key)
        if isinstance(np, dict) and np.get("d") == "poss" and np["poss"][0] == "pron" and subj.get("k") == "pron" \
                and np["poss"][1] == subj["p"] and np.get("n") in KIN:
            c[key] = dict(np, zh_poss_drop=True)
    if c.get("type") == "weather":
        en, zh = render_weather(c, tags)
    elif c.get("type") == "exist":
        en, zh = render_exist(c, tags)
    else:
        en, zh = render_clause(c, tags)
    if c.get("shift"):  # worked at the hospital (today) -> 在 医院 上班: a day's work, not a job
        zh = [_z("上班", z[1], z[2]) if z[0] == "工作" else z for z in zh]
        if not last:  # 在 医院 上班 ， 之后 去 超市 ... (no 了 in the middle of the day)
            zh = [z for k, z in enumerate(zh) if not (z[0] == "了" and k and zh[k - 1][0] == "上班")]
    if c.get("feel"):  # she was tired -> 她 觉得 很 累 (觉得 ~ was), not a bare 很 累 in a story
        k = next(k for k, z in enumerate(zh) if z[0] == "很")
        zh = zh[:k] + [_z("觉得", (), zh[k][2])] + zh[k:]
    if c.get("if"):  # if it rains tomorrow -> 如果 明天 下雨
        e = _e("if")
        en, zh = [e] + en, [_z("如果", (e,))] + zh
    return en, zh


def _join(conn, clause, en, items, alt):
    """English and Chinese tokens that join ``clause`` to the chain so far (the connective, ， or 。),
    the clause with its discourse hooks set, and where the Chinese connective goes."""
    if conn.startswith("stop"):  # a new sentence: . in the afternoon she ... -> 。 下午 她 ...
        lead = conn.partition(":")[2]
        e_stop = _e(".")
        l_en = [_e(w) for w in LEADS[lead][0]]
        l_zh = [_z(w, tuple(l_en[i] for i in ks), tuple(x for i, x in enumerate(l_en) if i not in ks))
                for w, ks in LEADS[lead][1]]
        if alt is not None:
            l_zh = [_z(alt[0], l_zh[0][1], l_zh[0][2])]
        clause["drop"] = clause["en_drop"] = False
        return [e_stop] + l_en, [_z("。", (e_stop,))] + l_zh, clause
    words, word_zh, where, sure_k = CONNS[conn]
    if alt is not None:
        word_zh, where = alt
    if conn not in EN_DROP_OK:
        clause["en_drop"] = False
    ew = [_e(w) for w in words]
    ec = _e("?" if conn.startswith("answer") else ",")
    bare_and = conn == "serial" or (clause.get("en_drop") and conn in EN_DROP_OK)  # and played ...
    en_join = ([] if bare_and else [ec]) + ew
    comma = _z("？" if conn.startswith("answer") else "，", (ec,) if ec in en_join else (ew[0],),
               (ew[0],) if conn == "and" and ec in en_join else ())
    z_conn = None
    if word_zh:
        sure = (ew[sure_k],) if sure_k is not None else ()
        poss = tuple(w for w in ew if w not in sure)
        if conn in ("and_also", "too"):  # and she also bought ... -> ， 她 还 买 了 ...
            e_also = _e("also")
            clause["_adv_en"] = (e_also,)
            sure = (e_also,)
        if conn == "cons":
            sure, poss = (), (en[0],) if items[0].get("if") else ()
        z_conn = _z(word_zh, sure, poss)
    if where == "adv":
        clause["_adv"] = (z_conn,)
    if conn == "serial":  # one clause in Chinese: 去 公园 踢 了 足球 (the English and / , have no token)
        return en_join, [], clause
    return en_join, [comma] + ([z_conn] if where == "front" else []), clause


def _render(items, tags, swap=None):
    """(English tokens, Chinese tokens) of a chain; ``swap`` = (k, alt) renders the connective at
    ``items[k]`` with the Chinese phrasing ``alt`` of ``ZH_ALTS``."""
    items = [dict(x, _no_le=True) if isinstance(x, dict) and k + 1 < len(items) and items[k + 1] == "serial"
             else x for k, x in enumerate(items)]  # 去 公园 踢 了 足球: no 了 on the first verb
    en, zh = _clause(items[0], tags, len(items) == 1)
    for i in range(1, len(items), 2):
        conn, clause = items[i], dict(items[i + 1])
        j_en, j_zh, clause = _join(conn, clause, en, items, swap[1] if swap and swap[0] == i else None)
        last = i + 2 == len(items) or str(items[i + 2]).startswith("stop")  # the end of a sentence
        cen, czh = _clause(clause, tags, last)
        en += j_en + cen
        zh += j_zh + czh
    return en, zh


def _swappable(items, k):
    """Whether the connective at ``items[k]`` may take its other phrasing (就 needs a clause of a person)."""
    conn = items[k]
    if conn not in ZH_ALTS:
        return False
    used = {CONNS[c][1] if c in CONNS else c for c in items[1::2]}
    if ZH_ALTS[conn][0] in used or (conn.startswith("stop") and ZH_ALTS[conn][0] in {"然后", "之后"} & {
            ZH_ALTS.get(c, ("",))[0] for c in items[1::2]}):
        return False  # not 之后 ... 之后: the other phrasing must not repeat a connective of the story
    if ZH_ALTS[conn][1] == "adv":  # 就 after the subject: not in a weather clause, not after 就 already there
        return items[k + 1].get("type") != "weather" and not items[k + 1].get("if")
    return True


def render_chain(items, tags):
    """(English tokens, Chinese tokens, is_question, alternatives) of a chain, without the final
    punctuation; ``alternatives``: the Chinese token lists of the same story with one connective in
    its other equally good phrasing (所以 / 就, 然后 / 之后, 但是 / 可是), at most four."""
    en, zh = _render(items, tags)
    alts = []
    for k in range(1, len(items), 2):
        if len(alts) < 4 and _swappable(items, k):
            alts.append(_render(items, set(), (k, ZH_ALTS[items[k]]))[1])
    tags.add("clause_chain")
    last = items[-1]
    return en, zh, last.get("q") not in (None,) and last.get("type") != "weather", alts
