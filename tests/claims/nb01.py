"""Claims of notebooks/01_information_bottleneck.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "01_information_bottleneck.ipynb"

CLAIMS = [
    # cell 7
    Claim('a1c0e7d2', 'all(m.config["bidirectional"] and m.meta["train"]["recipe"]["align_weight"] == 0 for m in models.values())', '同一种编码器，不用引导对齐'),
    Claim('a1c0e7d2', 'len({row[3] for row in rows}) == 1 and len({row[5] for row in rows}) == 1', '同样的隐含维度和训练步数'),
    # cell 9
    Claim('8ad2f5e8', '(train_min, train_max) == (3, 40)', 'training sentences are 3-40 words long'),
    Claim('8ad2f5e8', 'all((record["bucket_split"][f"{lo}-{hi}"] == "long") == (lo > train_max) for lo, hi in buckets)', 'the length groups beyond 40 words come from the long split, the others from test'),
    # cell 11
    Claim('b7d41f09', 'max(none[:2]) < 0.8', 'none 连最短的句子也译不好'),
    Claim('b7d41f09', 'none[inside[-1]] < max(none[:2]) - 0.2 and none[inside[-1]] < none[inside[-2]] - 0.15', '训练长度内，31-40 词陡降'),
    Claim('b7d41f09', 'none[beyond[0]] < none[inside[-1]] - 0.1 and none[beyond[-1]] < none[beyond[0]]', '超出训练长度，继续下降'),
    Claim('b7d41f09', 'all(min(scores[m][k] for k in early) >= 0.96 for m in ATTENTION)', '注意力模型 3-30 词几乎不变'),
    Claim('b7d41f09', 'all(0.9 <= scores[m][inside[-1]] < 0.95 for m in ATTENTION)', '31-40 词：略低于 0.95'),
    Claim('b7d41f09', 'scores[best][beyond[0]] >= 0.9 and 0.8 <= scores[best][beyond[-1]] < scores[best][beyond[0]] - 0.05', 'the best attention model keeps >= 0.9 at 41-50 words and drops to 0.8-0.85 at 51-60'),
    Claim('b7d41f09', 'all(scores[m][beyond[-1]] < 0.7 for m in ("luong-dot", "luong-concat"))', '51-60 词：有的注意力模型跌得多'),
    Claim('b7d41f09', 'all(g > 0.2 for g in gap) and max(gap[k] for k in early) < 0.26', '每一组都领先，3-30 词领先约 0.2'),
    Claim('b7d41f09', 'gap[inside[-1]] > 0.4 and min(gap[k] for k in beyond) > gap[inside[-1]] + 0.05 and long_gap > 0.5', '越长领先越多'),
    # cell 13
    Claim('b0fce952', 'live[best] > live["none"] + 0.3', 'on the first long sentences the attention model leads none by more than 0.3 char-BLEU (live run)'),
    # cell 16
    Claim('d5e8b3c4', 'all(0.05 <= drop[a] < 0.1 for a in ATTENTION)', '注意力模型掉得不多'),
    Claim('d5e8b3c4', 'drop["none"] > 0.3 and abs(m["none"]["novel"]["char_bleu"] - m["none"]["long"]["char_bleu"]) < 0.05', 'none loses over 0.3 from test to novel, and novel is about as bad as long for it'),
    Claim('d5e8b3c4', 'm["none"]["novel"]["exact_match"] < 0.02', '完全一致的几乎没有'),
    # cell 18
    Claim('16762013', 'count["none"] > count[best] == 0 and shorter["none"] == len(examples)', 'none：每句都偏短，还编了词'),
    Claim('16762013', 'shorter[best] == 1 and len(exact) == 2', '注意力模型：两句全对，一句少译'),
    # cell 19
    Claim('c93e2a51', 'all(share("none", split, "invented") > 0.6 and share("none", split, "invented") > 3 * max(share(a, split, "invented") for a in ATTENTION) for split in ("test", "novel", "long"))', 'none 编词：远多于任何一个注意力模型'),
    Claim('c93e2a51', 'max(share(a, "test", "invented") for a in ATTENTION) < 0.06 and max(share(a, "novel", "invented") for a in ATTENTION) > 0.15', 'attention models invent words in under 6 % of test sentences but over 15 % on novel'),
    Claim('c93e2a51', 'share("none", "long", "early_stop") > 0.8 and share("none", "long", "fewer_clauses") > 0.8', 'none：长句多半提前结束'),
    Claim('c93e2a51', 'max(share(a, "test", "early_stop") for a in ATTENTION) <= 0.01 and max(share(a, "long", "early_stop") for a in ATTENTION) < 0.3', 'attention models almost never stop early on test, and under 30 % on long'),
    Claim('c93e2a51', 'all(0.4 < share(a, "long", "fewer_clauses") < 0.6 for a in ATTENTION)', '注意力模型：长句约一半少了分句'),
    Claim('c93e2a51', 'max(test_fewer) - min(test_fewer) < 0.03', 'test 上五个模型几乎一样多'),
    Claim('c93e2a51', 'all(record["models"][name]["errors"]["test"][k] == 0 for name in ["none"] + ATTENTION for k in ("repeated_clause", "no_eos"))', 'no model repeats a clause or fails to stop on test'),
    Claim('c93e2a51', 'all(record["models"][a]["errors"]["long"]["repeated_clause"] > 0 and record["models"][a]["errors"]["long"]["no_eos"] > 0 for a in ATTENTION)', '重复分句、不结束：只在 long 上、只有注意力模型'),
    # cell 20
    Claim('e928a7ec', 'n_rep == record["models"][best]["errors"]["long"]["repeated_clause"]', '与 metrics.json 的统计一致'),
]
