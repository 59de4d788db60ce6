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
    Claim('b7d41f09', 'all(int(np.argmax(v)) == 1 and all(v[k + 1] < v[k] for k in range(1, len(v) - 1)) for v in (none, rnn))', 'none（和 rnnencdec）：11-20 词最高，此后每长一组都在下降'),
    Claim('b7d41f09', 'all(scores[m][0] < scores[m][1] for m in scores)', '3-10 词这一组，六个模型都比 11-20 词低'),
    Claim('b7d41f09', 'none[beyond[0]] < none[inside[-1]] and none[beyond[-1]] < none[beyond[0]]', 'none：超出训练长度，继续下降'),
    Claim('b7d41f09', 'all(r > n for r, n in zip(rnn, none))', 'rnnencdec 在每一组都比 none 高'),
    Claim('b7d41f09', 'rnn[beyond[-1]] < rnn[0] - 0.1', 'rnnencdec：句子一长照样下降'),
    Claim('b7d41f09', 'all(min(scores[m][k] for k in inside) > 0.92 and max(scores[m][k] for k in inside) - min(scores[m][k] for k in inside) < 0.1 for m in ATTENTION)', '注意力模型在 3-40 词几乎不变，最低的一组也有 0.93'),
    Claim('b7d41f09', 'all(scores[m][inside[-1]] - scores[m][beyond[-1]] >= none[inside[-1]] - none[beyond[-1]] for m in ATTENTION)', '按下降的幅度算，注意力模型并不比 none 降得慢'),
    Claim('b7d41f09', 'all(scores[m][beyond[-1]] < scores[m][inside[-1]] and scores[m][beyond[-1]] > max(none[beyond[-1]], rnn[beyond[-1]]) for m in ATTENTION)', '灰色区域：注意力模型也在下降，但仍高于两个无注意力模型（像 RNNsearch-30）'),
    Claim('b7d41f09', 'best == "luong-concat" and max(gap_rnn) == gap_rnn[beyond[0]] and max(gap) == gap[inside[-1]] and all(gap[k] < gap[inside[-1]] for k in beyond)', '领先 rnnencdec 的幅度在 41-50 词最大；领先 none 的幅度在 31-40 词最大，灰色区域里没有再增大'),
    # cell 13
    Claim('b0fce952', 'live[best] > live["none"] + 0.3 and live[best] > live["rnnencdec"]', 'on the first long sentences the attention model leads both baselines (live run)'),
    # cell 16
    Claim('d5e8b3c4', 'all(0.05 < drop[a] < 0.15 for a in ATTENTION) and min(drop[b] for b in BASELINES) > 2 * max(drop[a] for a in ATTENTION)', '注意力模型从 test 到 novel 掉了 0.08-0.13，远少于 none'),
    Claim('d5e8b3c4', 'drop["none"] > 0.3 and m["none"]["novel"]["char_bleu"] < m["none"]["long"]["char_bleu"]', 'none loses over 0.3 from test to novel, and is worse on novel than on long'),
    Claim('d5e8b3c4', 'max(drop, key=drop.get) == "rnnencdec" and m["rnnencdec"]["test"]["char_bleu"] > m["none"]["test"]["char_bleu"] + 0.1', 'rnnencdec：test 上比 none 好得多，到 novel 掉得最多'),
    Claim('d5e8b3c4', 'm["none"]["novel"]["exact_match"] < 0.02', '完全一致的几乎没有'),
    # cell 18
    Claim('16762013', 'shorter["none"] == len(examples) and count[best] == 0', 'none：三句都偏短；注意力模型没有参考译文里没有的词'),
    Claim('16762013', 'exact == [3] and shorter[best] == 2', '注意力模型：第 3 句与参考译文完全一致，例 1、例 2 漏了分句（比参考译文短）'),
    Claim('16762013', 'count["rnnencdec"] > count["none"]', 'rnnencdec：参考译文里没有的词比 none 多'),
    # cell 19
    Claim('c93e2a51', 'all(share("none", split, "invented") > 0.5 and share("none", split, "invented") > 2 * max(share(a, split, "invented") for a in ATTENTION) for split in ("novel", "long"))', 'none：novel 和 long 上多数句子有参考译文里没有的词，远多于注意力模型'),
    Claim('c93e2a51', 'max(share(a, "test", "invented") for a in ATTENTION) < 0.1', '注意力模型在训练长度以内很少出现参考译文里没有的词'),
    Claim('c93e2a51', 'share("none", "long", "early_stop") > 0.5 and share("none", "long", "fewer_clauses") > 0.5', 'none：long 上多数句子提前结束、少了分句'),
    Claim('c93e2a51', 'max(share(a, "test", "early_stop") for a in ATTENTION) < 0.03 and all(0.35 < share(a, "long", "early_stop") < 0.5 for a in ATTENTION)', 'attention models stop early on 1%-2% of test, on 40%-46% of long'),
    Claim('c93e2a51', 'all(share(a, "long", "fewer_clauses") > 0.5 for a in ATTENTION) and share("none", "long", "fewer_clauses") > max(share(a, "long", "fewer_clauses") for a in ATTENTION)', '注意力模型：long 上过半的句子少了分句，仍少于 none'),
    Claim('c93e2a51', 'test_fewer[0] > test_fewer[1] > max(test_fewer[2:]) and max(test_fewer) < 0.15', 'test 上少了分句的：none > rnnencdec > 注意力模型，都不多'),
    Claim('c93e2a51', 'share("rnnencdec", "test", "invented") < share("none", "test", "invented") - 0.2 and all(abs(share("rnnencdec", s, "invented") - share("none", s, "invented")) < 0.1 for s in ("novel", "long"))', 'rnnencdec：test 上参考译文里没有的词比 none 少得多，novel 和 long 上差不多'),
    Claim('c93e2a51', 'max(share(a, "novel", "invented") for a in ATTENTION) < 0.4 and min(share(a, "novel", "invented") for a in ATTENTION) > max(share(a, "test", "invented") for a in ATTENTION)', '注意力模型：novel 上参考译文里没有的词多一些（19%-35%）'),
    Claim('c93e2a51', 'share("none", "long", "repeated_clause") + share("none", "long", "no_eos") < 0.01 and all(share(a, "long", "no_eos") > 0.03 for a in ATTENTION)', 'none 几乎不重复分句、不会一直不结束；注意力模型在 long 上会'),
    Claim('c93e2a51', 'all(record["models"][a]["errors"]["long"]["repeated_clause"] > 0 for a in ATTENTION)', '重复分句：注意力模型在 long 上会出现'),
    # cell 20
    Claim('e928a7ec', 'n_rep == record["models"][best]["errors"]["long"]["repeated_clause"]', '与 metrics.json 的统计一致'),
    # exercise 2 reveal
    Claim('2e7b6e60', 'blind < normal - 0.3', 's_0 清零以后大幅下降'),
]
