"""The bilingual lexicon of the toy English->Chinese corpus (data only, no logic).

Every word the grammar in ``helpers.corpus.grammar`` can produce is listed here, with its Chinese
translation, its measure word (量词) and the semantic classes that the grammar uses as selectional
restrictions (only edible things are eaten, only readable things are read, ...).

Chinese tokens follow the segmentation of DESIGN.md §4 (corpus 2.0): numeral, demonstrative and
measure word are separate tokens (一 名 学生, 三 辆 车, 这 本 书, 几 个 苹果), so that the measure word
can be aligned to its noun; everything else is a word (学生, 图书馆, 喜欢, 的, 了, 们).
"""

from __future__ import annotations

from dataclasses import dataclass

# --------------------------------------------------------------------------- pronouns, names
# key: (subject form, object form, possessive form, Chinese, person, gender)
PRONOUNS = {
    "i": ("i", "me", "my", "我", "1s", ""),
    "you": ("you", "you", "your", "你", "2", ""),
    "he": ("he", "him", "his", "他", "3s", "m"),
    "she": ("she", "her", "her", "她", "3s", "f"),
    "we": ("we", "us", "our", "我们", "1p", ""),
    "they": ("they", "them", "their", "他们", "3p", ""),
    "it": ("it", "it", "its", "它", "3s", "n"),
}
NAMES = {
    "tom": ("汤姆", "m"), "mary": ("玛丽", "f"), "john": ("约翰", "m"), "lucy": ("露西", "f"),
    "jack": ("杰克", "m"), "lily": ("莉莉", "f"), "mike": ("迈克", "m"), "anna": ("安娜", "f"),
    "david": ("大卫", "m"), "emma": ("艾玛", "f"),
}


# --------------------------------------------------------------------------- nouns
@dataclass(frozen=True)
class Noun:
    key: str
    sg: str
    pl: str
    zh: str
    mw: str  # measure word (量词); "" for mass nouns
    cls: frozenset
    gender: str = ""
    conts: tuple = ()  # containers for mass nouns ("cup" -> 一杯 茶)
    mass: bool = False


def _nouns(spec: str, cls: str, extra: dict | None = None) -> dict:
    """Parse 'sg/pl zh mw gender; ...' lines. A missing /pl means sg + 's'."""
    out = {}
    base = set(cls.split())
    for item in spec.split(";"):
        item = item.strip()
        if not item:
            continue
        parts = item.split()
        en, zh, mw = parts[0], parts[1], parts[2]
        gender = parts[3] if len(parts) > 3 else ""
        sg, _, pl = en.partition("/")
        pl = pl or sg + "s"
        more = set((extra or {}).get(sg, "").split())
        out[sg] = Noun(sg, sg, pl, zh, mw, frozenset(base | more), gender)
    return out


PROFESSIONS = _nouns(
    "student 学生 名; teacher 老师 位; doctor 医生 位; nurse 护士 名; worker 工人 名; driver 司机 名;"
    "cook 厨师 名; writer 作家 位; singer 歌手 位; farmer 农民 位; engineer 工程师 名;"
    "scientist 科学家 位; artist 画家 位; pilot 飞行员 名; waiter 服务员 名; actor 演员 位",
    "person prof human",
    {"teacher": "friend_ok"},
)
PEOPLE = _nouns(
    "boy 男孩 个 m; girl 女孩 个 f; man/men 男人 个 m; woman/women 女人 个 f; child/children 孩子 个;"
    "friend 朋友 个; neighbor 邻居 个; baby/babies 宝宝 个; classmate 同学 个",
    "person human",
    {"girl": "beautiful_ok", "child": "cute_ok", "friend": "friend_ok", "neighbor": "friend_ok",
     "baby": "cute_ok", "classmate": "friend_ok"},
)
KIN = _nouns(
    "mother 妈妈 个 f; father 爸爸 个 m; brother 哥哥 个 m; sister 姐姐 个 f; son 儿子 个 m;"
    "daughter 女儿 个 f; grandmother 奶奶 个 f; grandfather 爷爷 个 m; uncle 叔叔 个 m; aunt 阿姨 个 f;"
    "wife/wives 妻子 个 f; husband 丈夫 个 m; parents/parents 父母 个",
    "kin human",
)
ANIMALS = _nouns(
    "cat 猫 只; dog 狗 只; bird 鸟 只; horse 马 匹; fish/fish 鱼 条; rabbit 兔子 只; cow 牛 头;"
    "duck 鸭子 只; monkey 猴子 只; panda 熊猫 只; tiger 老虎 只; elephant 大象 头; pig 猪 头;"
    "sheep/sheep 羊 只; mouse/mice 老鼠 只; lion 狮子 头; bear 熊 只",
    "animal visible drawable",
    {
        "cat": "lostable colored cute_ok sized pet", "dog": "lostable colored cute_ok sized pet",
        "bird": "colored cute_ok beautiful_ok pet", "horse": "colored sized", "rabbit": "cute_ok colored pet",
        "panda": "cute_ok", "duck": "cute_ok", "monkey": "cute_ok", "fish": "food pet",
        "tiger": "sized",  # no "big elephant": 大 大象 says it twice
    },
)
THINGS = {
    **_nouns(
        "book 书 本; newspaper 报纸 份; magazine 杂志 本; novel 小说 本",
        "readable buyable thing lostable",
        {"book": "writable interesting_ok sized newold openable colored good_ok givable bringable borrowable",
         "novel": "writable interesting_ok good_ok longshort borrowable", "magazine": "interesting_ok good_ok borrowable"},
    ),
    **_nouns("letter 信 封", "readable thing lostable writable longshort"),
    **_nouns(
        "apple 苹果 个; banana 香蕉 根; orange 橙子 个; egg 鸡蛋 个; cake 蛋糕 块; pear 梨 个;"
        "sandwich/sandwiches 三明治 个; watermelon 西瓜 个; potato/potatoes 土豆 个; tomato/tomatoes 西红柿 个;"
        "cookie 饼干 块",
        "food buyable thing",
        {"apple": "washable", "watermelon": "sized", "cake": "sized makeable", "sandwich": "makeable",
         "cookie": "makeable", "potato": "washable", "tomato": "washable"},
    ),
    **_nouns(
        "car 车 辆; bike 自行车 辆",
        "vehicle buyable thing visible colored newold sized expensive_ok washable sellable",
        {"car": "drivable cheap_ok", "bike": "rideable"},
    ),
    # big vehicles: seen and waited for, not owned or bought by our people
    **_nouns("bus/buses 公共汽车 辆; truck 卡车 辆; boat 船 条", "thing visible colored sized drawable",
             {"bus": "bus"}),
    **_nouns(
        "table 桌子 张; chair 椅子 把; pen 笔 支; pencil 铅笔 支; computer 电脑 台; phone 手机 部;"
        "bag 包 个; umbrella 伞 把; picture 画 幅; photo 照片 张; map 地图 张; hat 帽子 顶;"
        "shirt 衬衫 件; coat 外套 件; dress/dresses 裙子 条; key 钥匙 把; cup 杯子 个; box/boxes 箱子 个;"
        "ticket 票 张; gift 礼物 份; flower 花 朵; kite 风筝 个; ball 球 个; house 房子 座; room 房间 个;"
        "notebook 笔记本 本; bed 床 张; desk 书桌 张; toy 玩具 个; sweater 毛衣 件",
        "thing visible",
        {
            "table": "buyable colored sized newold landmark", "chair": "buyable colored newold landmark",
            "pen": "buyable lostable needed colored newold bringable borrowable givable", "pencil": "buyable lostable needed colored",
            "computer": "buyable needed newold expensive_ok heavy_ok usable",
            "phone": "buyable lostable needed newold expensive_ok bringable usable",
            "bag": "buyable lostable needed colored newold sized landmark openable expensive_ok heavy_ok bringable",
            "umbrella": "buyable lostable needed colored newold bringable borrowable",
            "picture": "buyable drawable beautiful_ok lookable", "photo": "buyable lookable",
            "map": "buyable drawable needed bringable usable lookable", "hat": "buyable lostable colored newold washable",
            "shirt": "buyable colored newold washable clean_ok", "coat": "buyable colored newold washable",
            "dress": "buyable colored newold washable beautiful_ok longshort", "key": "lostable needed bringable",
            "cup": "buyable washable colored clean_ok", "box": "buyable sized landmark openable colored heavy_ok",
            "ticket": "buyable lostable needed bringable givable", "gift": "buyable givable bringable", "flower": "buyable drawable beautiful_ok colored givable lookable",
            "kite": "buyable colored makeable flyable", "ball": "buyable colored lostable",
            "house": "buyable drawable sized newold beautiful_ok expensive_ok cleanable",
            "room": "sized cleanable clean_ok",
            "notebook": "buyable lostable needed newold bringable", "bed": "buyable sized newold landmark",
            "desk": "buyable sized newold landmark cleanable", "toy": "buyable lostable newold givable makeable",
            "sweater": "buyable colored newold washable",
        },
    ),
    **_nouns("tree 树 棵", "visible drawable sized landmark"),
    **_nouns("song 歌 首", "singable writable listenable good_ok"),
    **_nouns("movie 电影 部", "watchable interesting_ok good_ok longshort"),
    **_nouns("question 问题 个", "answerable"),
}
# person / people -> 人 (这 个 人, 三 个 人); hour -> 小时 (for two hours -> 两 个 小时, after the verb)
OTHER = {
    **_nouns("person/people 人 个", "person human"),
    **_nouns("hour 小时 个", "duration"),
}
# Nouns whose definite form has no measure word in Chinese ("open the door" -> 打开 门).
BARE_DEF = {
    "door": Noun("door", "door", "doors", "门", "扇", frozenset({"thing", "openable", "closable", "landmark"})),
    "window": Noun("window", "window", "windows", "窗户", "扇", frozenset({"thing", "openable", "closable"})),
    "tv": Noun("tv", "tv", "tv", "电视", "台", frozenset({"watchable_bare"})),
}


def _mass(key, zh, cls, conts=()):
    return Noun(key, key, key, zh, "", frozenset(cls.split()), "", tuple(conts), True)


MASS = {
    "rice": _mass("rice", "米饭", "massfood", ("bowl",)),
    "noodles": _mass("noodles", "面条", "massfood", ("bowl",)),
    "meat": _mass("meat", "肉", "massfood buyable"),
    "bread": _mass("bread", "面包", "massfood buyable"),
    "soup": _mass("soup", "汤", "drink", ("bowl",)),
    "tea": _mass("tea", "茶", "drink buyable", ("cup",)),
    "coffee": _mass("coffee", "咖啡", "drink buyable", ("cup",)),
    "milk": _mass("milk", "牛奶", "drink buyable", ("glass", "bottle")),
    "water": _mass("water", "水", "drink buyable", ("glass", "bottle")),
    "juice": _mass("juice", "果汁", "drink buyable", ("glass", "bottle")),
    "music": _mass("music", "音乐", "likeable listenable"),
    "english": _mass("english", "英语", "subject language"),
    "chinese": _mass("chinese", "中文", "subject language"),
    "math": _mass("math", "数学", "subject"),
    "history": _mass("history", "历史", "subject"),
    "football": _mass("football", "足球", "sport"),
    "basketball": _mass("basketball", "篮球", "sport"),
    "tennis": _mass("tennis", "网球", "sport"),
    "chess": _mass("chess", "象棋", "sport"),
    "piano": _mass("piano", "钢琴", "instrument"),
    "guitar": _mass("guitar", "吉他", "instrument"),
    "fruit": _mass("fruit", "水果", "massfood buyable"),
    "chicken": _mass("chicken", "鸡肉", "massfood buyable"),
    "vegetables": _mass("vegetables", "蔬菜", "massfood buyable"),
    "breakfast": _mass("breakfast", "早饭", "meal makeable"),
    "lunch": _mass("lunch", "午饭", "meal makeable"),
    "dinner": _mass("dinner", "晚饭", "meal makeable"),
    "weather": _mass("weather", "天气", "weather"),
    "time": _mass("time", "时间", "havetime"),
}
# container -> (singular, plural, Chinese measure word)
CONTAINERS = {"cup": ("cup", "cups", "杯"), "glass": ("glass", "glasses", "杯"),
              "bowl": ("bowl", "bowls", "碗"), "bottle": ("bottle", "bottles", "瓶")}

NOUNS: dict[str, Noun] = {**PROFESSIONS, **PEOPLE, **KIN, **ANIMALS, **THINGS, **BARE_DEF, **MASS, **OTHER}

# --------------------------------------------------------------------------- places
# key: (English words after the preposition, preposition, Chinese)
PLACES = {
    "library": (("the", "library"), "in", "图书馆"), "school": (("school",), "at", "学校"),
    "park": (("the", "park"), "in", "公园"), "home": (("home",), "at", "家"),
    "hospital": (("the", "hospital"), "at", "医院"), "store": (("the", "store"), "at", "商店"),
    "restaurant": (("the", "restaurant"), "at", "饭馆"), "kitchen": (("the", "kitchen"), "in", "厨房"),
    "office": (("the", "office"), "in", "办公室"), "station": (("the", "station"), "at", "车站"),
    "market": (("the", "market"), "at", "市场"), "classroom": (("the", "classroom"), "in", "教室"),
    "garden": (("the", "garden"), "in", "花园"), "supermarket": (("the", "supermarket"), "at", "超市"),
    "cinema": (("the", "cinema"), "at", "电影院"), "museum": (("the", "museum"), "in", "博物馆"),
    "zoo": (("the", "zoo"), "at", "动物园"), "pool": (("the", "pool"), "in", "游泳池"),
    "beach": (("the", "beach"), "at", "海边"),
    "city": (("the", "city"), "in", "城里"), "town": (("town",), "in", "镇上"), "bank": (("the", "bank"), "at", "银行"),
    "airport": (("the", "airport"), "at", "机场"), "hotel": (("the", "hotel"), "at", "酒店"),
    "farm": (("the", "farm"), "on", "农场"), "bookstore": (("the", "bookstore"), "at", "书店"),
    "university": (("the", "university"), "at", "大学"), "cafe": (("the", "cafe"), "at", "咖啡馆"),
    "bedroom": (("the", "bedroom"), "in", "卧室"), "playground": (("the", "playground"), "on", "操场"),
}
# a place adverb: "he works there" -> 他 在 那里 工作 (no preposition in English)
THERE = {"there": "那里", "here": "这里"}
# locative prepositions around a landmark noun: the book is on the table -> 书 在 桌子 上
LOCATIVES = {"on": (("on",), "上"), "under": (("under",), "下面"), "in": (("in",), "里"),
             "next_to": (("next", "to"), "旁边"), "near": (("near",), "附近")}

# --------------------------------------------------------------------------- adjectives
# key: (Chinese stem, kind, noun class it needs); kind: color = 红色 的 / 是 红色 的,
# mono = attributive without 的 (大 狗) and predicative 很 大, de = 漂亮 的 / 很 漂亮,
# hende = 很 贵 的 / 很 贵, human = predicative only (很 累)
ADJECTIVES = {
    "red": ("红色", "color", "colored"), "black": ("黑色", "color", "colored"),
    "white": ("白色", "color", "colored"), "blue": ("蓝色", "color", "colored"),
    "green": ("绿色", "color", "colored"), "yellow": ("黄色", "color", "colored"),
    "big": ("大", "mono", "sized"), "small": ("小", "mono", "sized"),
    "new": ("新", "mono", "newold"), "old": ("旧", "mono", "newold"),
    "beautiful": ("漂亮", "de", "beautiful_ok"), "interesting": ("有趣", "de", "interesting_ok"),
    "delicious": ("好吃", "de", "food"), "cute": ("可爱", "de", "cute_ok"),
    "expensive": ("贵", "hende", "expensive_ok"), "clean": ("干净", "de", "clean_ok"),
    "tired": ("累", "human", "human"), "hungry": ("饿", "human", "human"), "busy": ("忙", "human", "human"),
    "happy": ("高兴", "human", "human"), "thirsty": ("渴", "human", "human"), "tall": ("高", "human", "human"),
    "good": ("好", "mono", "good_ok"), "bad": ("差", "hende", "good_ok"), "long": ("长", "mono", "longshort"),
    "short": ("短", "mono", "longshort"), "cheap": ("便宜", "hende", "expensive_ok"),
    "heavy": ("重", "hende", "heavy_ok"), "sad": ("难过", "human", "human"), "young": ("年轻", "human", "human"),
    "angry": ("生气", "human", "human"), "sleepy": ("困", "human", "human"),
    "hot": ("热", "weather", "weather"), "cold": ("冷", "weather", "weather"),
}
# weather: "it is cold today" -> 今天 天气 很 冷 (it - 天气); "the weather is good" -> 天气 很 好
WEATHER_ADJ = ("hot", "cold", "good", "bad")
# colours that the noun really comes in (no red dogs or green rabbits); nouns not listed take any colour
COLORS_OF = {"cat": ("black", "white"), "dog": ("black", "white"), "rabbit": ("white", "black"),
             "horse": ("black", "white"), "flower": ("red", "white", "yellow", "blue"),
             "bird": ("blue", "yellow", "black", "white", "red", "green")}
NEG_BAD_ADJ = {"interesting"}  # 不有趣 is stiff; we do not negate it

# --------------------------------------------------------------------------- verbs
# key: (base, 3sg, past, -ing, particle, Chinese, object classes, places, tenses, flags)
# tenses: p = present habitual, d = past, f = future (will), g = progressive, c = can (ability)
# flags: s = stative (no 了, no progressive, 了-free past), w = "what" may ask for the object,
#        l = intransitive past takes sentence-final 了, h = object may be a person ("who" object)
VERBS = {
    "eat": ("eat", "eats", "ate", "eating", "", "吃", "food massfood meal", "restaurant kitchen home", "pdfg", "w"),
    "drink": ("drink", "drinks", "drank", "drinking", "", "喝", "drink", "restaurant kitchen home", "pdfg", "w"),
    "read": ("read", "reads", "read", "reading", "", "看", "readable", "library home park classroom office",
             "pdfg", "w"),
    "write": ("write", "writes", "wrote", "writing", "", "写", "writable", "home office classroom library",
              "pdfg", "w"),
    "buy": ("buy", "buys", "bought", "buying", "", "买", "buyable", "store market supermarket", "pdf", "w"),
    "sell": ("sell", "sells", "sold", "selling", "", "卖", "food flower sellable", "market store", "pdg", "w"),
    "see": ("see", "sees", "saw", "seeing", "", "看见", "person kin animal vehicle",
            "park zoo station school library store market beach garden", "d", "wh"),
    "wash": ("wash", "washes", "washed", "washing", "", "洗", "washable", "kitchen home", "pdfg", "w"),
    "clean": ("clean", "cleans", "cleaned", "cleaning", "", "打扫", "cleanable", "", "pdfg", ""),
    "draw": ("draw", "draws", "drew", "drawing", "", "画", "drawable", "park classroom home garden", "pdfg", "w"),
    "open": ("open", "opens", "opened", "opening", "", "打开", "openable", "", "pdfc", ""),
    "close": ("close", "closes", "closed", "closing", "", "关上", "closable", "", "dfc", ""),
    "find": ("find", "finds", "found", "finding", "", "找到", "lostable", "park library school home", "df", "w"),
    "lose": ("lose", "loses", "lost", "losing", "", "丢", "lostable", "park library school station", "d", "w"),
    "look_for": ("look", "looks", "looked", "looking", "for", "找", "lostable kin", "", "g", "wh"),
    "wait_for": ("wait", "waits", "waited", "waiting", "for", "等", "kin person bus", "station school park here",
                 "pdfg", "h"),
    "visit": ("visit", "visits", "visited", "visiting", "", "看望", "kin friend_ok", "", "pdf", "h"),
    "meet": ("meet", "meets", "met", "meeting", "", "遇到", "person kin", "park library station store market",
             "pdf", "h"),
    "help": ("help", "helps", "helped", "helping", "", "帮助", "person kin", "", "pdfc", "h"),
    "watch": ("watch", "watches", "watched", "watching", "", "看", "watchable watchable_bare", "cinema home",
              "pdfg", "w"),
    "play": ("play", "plays", "played", "playing", "", "", "sport instrument", "park school home", "pdfgc", ""),
    "teach": ("teach", "teaches", "taught", "teaching", "", "教", "subject", "school", "pdf", "w"),
    "study": ("study", "studies", "studied", "studying", "", "学习", "subject", "library school home classroom",
              "pdfg", "w"),
    "speak": ("speak", "speaks", "spoke", "speaking", "", "说", "language", "", "pc", "s"),
    "sing_t": ("sing", "sings", "sang", "singing", "", "唱", "singable", "park classroom home", "dfg", ""),
    "like": ("like", "likes", "liked", "liking", "", "喜欢", "", "", "p", "swh"),
    "love": ("love", "loves", "loved", "loving", "", "爱", "", "", "p", "sh"),
    "have": ("have", "has", "had", "having", "", "有", "", "", "pd", "sw"),
    "want": ("want", "wants", "wanted", "wanting", "", "想要", "", "", "pd", "sw"),
    "need": ("need", "needs", "needed", "needing", "", "需要", "needed", "", "p", "sw"),
    "know": ("know", "knows", "knew", "knowing", "", "认识", "person kin", "", "pd", "sh"),
    "give": ("give", "gives", "gave", "giving", "", "给", "givable", "", "df", ""),
    "make": ("make", "makes", "made", "making", "", "做", "makeable", "kitchen home", "pdfg", "w"),
    "answer": ("answer", "answers", "answered", "answering", "", "回答", "answerable", "classroom", "dfc", ""),
    "learn": ("learn", "learns", "learned", "learning", "", "学", "subject", "school home", "pfg", "w"),
    "bring": ("bring", "brings", "brought", "bringing", "", "带", "bringable", "", "df", "w"),
    "borrow": ("borrow", "borrows", "borrowed", "borrowing", "", "借", "borrowable", "library", "dfc", "w"),
    "ride": ("ride", "rides", "rode", "riding", "", "骑", "rideable", "park", "pdfgc", ""),
    "drive": ("drive", "drives", "drove", "driving", "", "开", "drivable", "", "pdfc", ""),
    "use": ("use", "uses", "used", "using", "", "用", "usable", "office home classroom", "pdfc", ""),
    "fly": ("fly", "flies", "flew", "flying", "", "放", "flyable", "park beach", "dfg", ""),
    "listen_to": ("listen", "listens", "listened", "listening", "to", "听", "listenable", "home", "pdfg", ""),
    "look_at": ("look", "looks", "looked", "looking", "at", "看", "lookable", "", "dg", ""),
}
# the Chinese verb of "play" depends on its object (踢 足球, 打 篮球, 下 象棋, 弹 钢琴)
PLAY_ZH = {"football": "踢", "basketball": "打", "tennis": "打", "chess": "下", "piano": "弹", "guitar": "弹"}

# intransitive: (base, 3sg, past, -ing, Chinese, places, tenses, flags)
INTRANSITIVE = {
    "swim": ("swim", "swims", "swam", "swimming", "游泳", "pool beach", "pdfgc", "l"),
    "run": ("run", "runs", "ran", "running", "跑步", "park school beach", "pdfg", "l"),
    "sleep": ("sleep", "sleeps", "slept", "sleeping", "睡觉", "home", "pdfg", "l"),
    "work": ("work", "works", "worked", "working", "工作",
             "hospital office school store restaurant library market station bank hotel farm airport there", "pdfg", "l"),
    "sing": ("sing", "sings", "sang", "singing", "唱歌", "park classroom home school", "pdfgc", "l"),
    "dance": ("dance", "dances", "danced", "dancing", "跳舞", "park home school", "pdfgc", "l"),
    "cook": ("cook", "cooks", "cooked", "cooking", "做饭", "kitchen home", "pdfgc", "l"),
    "play_i": ("play", "plays", "played", "playing", "玩", "park garden home school playground there", "pdfg", "l"),
    "walk": ("walk", "walks", "walked", "walking", "散步", "park garden beach", "pdfg", "l"),
    "study_i": ("study", "studies", "studied", "studying", "学习", "library home classroom school", "pdfg", "l"),
    "cry": ("cry", "cries", "cried", "crying", "哭", "", "dg", "l"),
    "laugh": ("laugh", "laughs", "laughed", "laughing", "笑", "", "dg", "l"),
    "rest": ("rest", "rests", "rested", "resting", "休息", "home", "pdfg", "l"),
    # live / stay put the place after the verb: 她 住 在 城里, 我 待 在 家
    "live": ("live", "lives", "lived", "living", "住", "city town there", "pd", "a"),
    "stay": ("stay", "stays", "stayed", "staying", "待", "home", "df", "a"),
    "get_up": ("get", "gets", "got", "getting", "起床", "", "pdf", "l"),
}
# English particles of intransitive verbs: get up -> 起床 (get and up both sure to 起床)
PARTICLE_I = {"get_up": "up"}
# "come" moves like "go": come to school -> 来 学校, come home -> 回 家
COME = ("come", "comes", "came", "coming", "来")
# the Chinese verb of "meet" is 见 for an arranged or habitual meeting (present / future), 遇到 for a chance one
MEET_PF = "见"
GO = ("go", "goes", "went", "going", "去")
GO_PLACES = ("school library park hospital store restaurant office station market supermarket cinema museum "
             "zoo pool beach home city town bank airport hotel farm bookstore university cafe playground").split()
# by-phrases of "go": English tokens, Chinese tokens as (word, sure English indices)
BY = {
    "bus": (("by", "bus"), (("坐", (0,)), ("公共汽车", (1,)))),
    "car": (("by", "car"), (("坐", (0,)), ("车", (1,)))),
    "bike": (("by", "bike"), (("骑", (0,)), ("自行车", (1,)))),
    "train": (("by", "train"), (("坐", (0,)), ("火车", (1,)))),
    "foot": (("on", "foot"), (("走路", (0, 1)),)),
}

# --------------------------------------------------------------------------- time expressions
# key: (English tokens, Chinese tokens as (word, sure English indices), tenses)
TIMES = {
    "yesterday": (("yesterday",), (("昨天", (0,)),), "d"),
    "last_night": (("last", "night"), (("昨晚", (0, 1)),), "d"),
    "last_week": (("last", "week"), (("上周", (0, 1)),), "d"),
    "last_year": (("last", "year"), (("去年", (0, 1)),), "d"),
    "this_morning": (("this", "morning"), (("今天", (0,)), ("早上", (1,))), "d"),
    "today": (("today",), (("今天", (0,)),), "df"),
    "every_day": (("every", "day"), (("每天", (0, 1)),), "p"),
    "every_morning": (("every", "morning"), (("每天", (0,)), ("早上", (1,))), "p"),
    "every_evening": (("every", "evening"), (("每天", (0,)), ("晚上", (1,))), "p"),
    "every_week": (("every", "week"), (("每周", (0, 1)),), "p"),
    "every_sunday": (("every", "sunday"), (("每个", (0,)), ("星期天", (1,))), "p"),
    "on_weekends": (("on", "weekends"), (("周末", (0, 1)),), "p"),
    "tomorrow": (("tomorrow",), (("明天", (0,)),), "f"),
    "in_winter": (("in", "winter"), (("冬天", (1,)),), "p"),
    "in_summer": (("in", "summer"), (("夏天", (1,)),), "p"),
    "after_school": (("after", "school"), (("放学", (1,)), ("后", (0,))), "pdf"),
    "after_dinner": (("after", "dinner"), (("晚饭", (1,)), ("后", (0,))), "pdf"),
    "this_weekend": (("this", "weekend"), (("这", (0,)), ("个", (1,)), ("周末", (1,))), "f"),
    "last_weekend": (("last", "weekend"), (("上", (0,)), ("个", (1,)), ("周末", (1,))), "d"),
    "tonight": (("tonight",), (("今晚", (0,)),), "f"),
    "next_week": (("next", "week"), (("下周", (0, 1)),), "f"),
    "next_year": (("next", "year"), (("明年", (0, 1)),), "f"),
    "now": (("now",), (("现在", (0,)),), "g"),
}
# frequency adverbs stand before the verb in both languages
FREQ = {"often": "经常", "usually": "通常", "always": "总是", "sometimes": "有时候"}
# never: present -> 从来 不 V, past -> 从来 没 V (both tokens sure to "never")
NEVER_ZH = ("从来", "不", "没")

NUMBERS_EN = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
              9: "nine", 10: "ten"}
NUMBERS_ZH = {1: "一", 2: "两", 3: "三", 4: "四", 5: "五", 6: "六", 7: "七", 8: "八", 9: "九", 10: "十"}
# "and" between clauses is not a connective word in Chinese: ， + 还 (same agent) or a bare ， (see grammar)
CONNECTORS = {"and": "还", "but": "但是", "because": "因为", "so": "所以", "then": "然后"}  # then = ", and then"
WH_ZH = {"what": "什么", "who": "谁", "where": "哪里", "when": "什么时候", "why": "为什么", "how": "怎么"}
# function words of the grammar that the tables above do not list
FUNCTION_EN = ("a an the this that these those 's not do does did will can am is are was were very "
               "who what where when why how many of to in at on . , ?").split()
FUNCTION_ZH = ("的 了 吗 不 没 没有 会 能 可以 很 是 在 这 那 这些 那些 几 回 和 们 不是 都 。 ， ？").split()
# corpus 3.0 words a learner types first: it, there is, with ... together, or, never, 正在
FUNCTION_EN_3 = "it there with together or never early no too".split()
FUNCTION_ZH_3 = "它 有 一起 还是 或者 正在 下雨 去 喝 见 早 里 也 就".split()
RAIN = ("rain", "rains", "rained", "raining", "下雨")
