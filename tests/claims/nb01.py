"""Claims of notebooks/01_information_bottleneck.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "01_information_bottleneck.ipynb"

CLAIMS = [
    # cell 7
    Claim('a1c0e7d2', 'all(m.config["bidirectional"] and m.meta["train"]["recipe"]["align_weight"] == 0 for m in models.values())', '同一种编码器，不用引导对齐'),
    Claim('a1c0e7d2', 'len({row[3] for row in rows}) == 1 and len({row[5] for row in rows}) == 1', '同样的隐含维度和训练步数'),
    Claim('a1c0e7d2', 'len({row[6] for row in rows}) > 1 and list(models) == BASELINES + ATTENTION', '参数个数并不相同；六个模型'),
    # cell 9
    Claim('8ad2f5e8', '(train_min, train_max) == (3, 40)', 'training sentences are 3-40 words long'),
    Claim('8ad2f5e8', 'all((record["bucket_split"][f"{lo}-{hi}"] == "long") == (lo > train_max) for lo, hi in buckets)', 'the length groups beyond 40 words come from the long split, the others from test'),
    Claim('8ad2f5e8', '"rnnencdec" in scores and "none" in scores', 'the table and figure include both baselines'),
    # cell 11
    Claim('b7d41f09', 'none[inside[-1]] < min(none[k] for k in early) - 0.1', 'none：训练长度内先大致持平，31-40 词明显下降'),
    Claim('b7d41f09', 'none[beyond[0]] < none[inside[-1]] and none[beyond[-1]] < none[beyond[0]]', 'none：超出训练长度，继续下降'),
    Claim('b7d41f09', 'rnn[0] > none[0]', 'rnnencdec 在短句上比 none 高'),
    Claim('b7d41f09', 'rnn[beyond[-1]] < rnn[0] - 0.1', 'rnnencdec：句子一长照样下降'),
    Claim('b7d41f09', 'all(max(scores[m][k] for k in early) - min(scores[m][k] for k in early) < 0.05 and scores[m][inside[-1]] < min(scores[m][k] for k in early) for m in ATTENTION)', '注意力模型 3-30 词几乎不变，31-40 词略有下降'),
    Claim('b7d41f09', 'all(scores[m][beyond[-1]] < scores[m][inside[-1]] and scores[m][beyond[-1]] > max(none[beyond[-1]], rnn[beyond[-1]]) for m in ATTENTION)', '灰色区域：注意力模型也在下降，但仍高于两个无注意力模型（像 RNNsearch-30）'),
    Claim('b7d41f09', 'gap[beyond[-1]] > gap[0] and gap_rnn[beyond[-1]] > gap_rnn[0] and max(gap[k] for k in beyond) == max(gap)', '领先幅度随长度增大，灰色区域里最大'),
    # cell 13
    Claim('b0fce952', 'live[best] > live["none"] + 0.3 and live[best] > live["rnnencdec"]', 'on the first long sentences the attention model leads both baselines (live run)'),
    # cell 16
    Claim('d5e8b3c4', 'all(drop[a] < 0.1 for a in ATTENTION)', '注意力模型从 test 到 novel 只掉了一点'),
    Claim('d5e8b3c4', 'drop["none"] > 0.3 and abs(m["none"]["novel"]["char_bleu"] - m["none"]["long"]["char_bleu"]) < 0.1', 'none loses over 0.3 from test to novel, and novel is about as bad as long for it'),
    Claim('d5e8b3c4', 'm["none"]["novel"]["exact_match"] < 0.02', '完全一致的几乎没有'),
    # cell 18
    Claim('16762013', 'shorter["none"] == len(examples) and count[best] == 0', 'none：三句都偏短；注意力模型没有参考译文里没有的词'),
    Claim('16762013', 'len(exact) >= 2', '注意力模型：大多与参考译文一致'),
    # cell 19
    Claim('c93e2a51', 'all(share("none", split, "invented") > 0.5 and share("none", split, "invented") > 2 * max(share(a, split, "invented") for a in ATTENTION) for split in ("novel", "long"))', 'none：novel 和 long 上多数句子有参考译文里没有的词，远多于注意力模型'),
    Claim('c93e2a51', 'max(share(a, "test", "invented") for a in ATTENTION) < 0.1', '注意力模型在训练长度以内很少出现参考译文里没有的词'),
    Claim('c93e2a51', 'share("none", "long", "early_stop") > 0.5 and share("none", "long", "fewer_clauses") > 0.5', 'none：long 上多数句子提前结束、少了分句'),
    Claim('c93e2a51', 'max(share(a, "test", "early_stop") for a in ATTENTION) <= 0.02 and max(share(a, "long", "early_stop") for a in ATTENTION) < 0.5', 'attention models almost never stop early on test, some do on long'),
    Claim('c93e2a51', 'all(share(a, "long", "fewer_clauses") > 0.2 for a in ATTENTION) and share("none", "long", "fewer_clauses") > max(share(a, "long", "fewer_clauses") for a in ATTENTION)', '注意力模型：long 上不少句子少了分句，仍少于 none'),
    Claim('c93e2a51', 'max(test_fewer) - min(test_fewer) < 0.05', 'test 上各个模型差不多'),
    Claim('c93e2a51', 'all(record["models"][a]["errors"]["long"]["repeated_clause"] > 0 for a in ATTENTION)', '重复分句：注意力模型在 long 上会出现'),
    # cell 20
    Claim('e928a7ec', 'n_rep == record["models"][best]["errors"]["long"]["repeated_clause"]', '与 metrics.json 的统计一致'),
    # exercise 2 reveal
    Claim('2e7b6e60', 'blind < normal - 0.3', 's_0 清零以后大幅下降'),
]
