"""Exercises of notebook 07b_faithfulness (does the model use what it attends to? a lab).

* ``nb07_look_or_say``     a choice with its reasoning: which intervention tells "looked at the word but
  did not say it" from "never looked at it" (force the attention onto the word at the step where it
  belongs, and see whether the model then says it)
* ``nb07b_weak_control``   a choice with its reasoning: why "remove one other key at random" barely
  changes the output of a sharp model whatever the peak means (the other keys carry almost no weight),
  and so cannot show on its own that the peak is special; the fix is a comparison at equal weight removed

Both answers follow from reasoning, not from a measured number. ``nb07_look_or_say`` keeps the id of
the notebook before the split (the grader's columns use it).
"""

from __future__ import annotations

from helpers.exercises import Exercise, register
from helpers.exercises.kinds import reason_answer

NOTEBOOK = "07b_faithfulness"


# --------------------------------------------------------------------------- 1. looked, or never looked?
LOOK_OR_SAY_REASONS = {
    "A": "在该说出这个词的那一步（用参考译文的前缀做教师强制），把注意力改成只看这个英文词（one-hot），"
         "看输出会不会变成它：说出来了，缺的是“看”；仍然不说，信息已经送到，缺的是“说”。",
    "B": "把这个英文词那一列的权重在每一步都改成 0，看译文变不变：不变就是“从来没看”。",
    "C": "把每一步的注意力都换成均匀分布（uniform），看整个测试集的 BLEU 降了多少。",
    "D": "不用干预：热力图里这一列的最大权重超过 0.3 就是“看了没说”，否则就是“没看”。",
}


register(Exercise(
    id="nb07_look_or_say",
    notebook=NOTEBOOK,
    title="设计干预：“看了没说”还是“根本没看”？(design an intervention)",
    prompt="第 2 节区分了两种漏译：漏掉的英文词那一列从头到尾几乎没有权重（根本没看），或者某一步把很大的权重放在它上面，"
           "译文里却始终没有它（看了却没说）。热力图只显示了相关。哪一个干预能检验“只要看了这个词，模型就会说出它”？"
           + "；".join(f"{k}. {v}" for k, v in LOOK_OR_SAY_REASONS.items()),
    solution="A",
    checker=reason_answer("A", LOOK_OR_SAY_REASONS, why_not={
        "B": "漏掉的词本来就没有说出来：把它的权重改成 0，两种情形的译文都不会多出这个词，分不开。",
        "C": "均匀分布改变的是每一步、每个词，测到的是整体上依不依赖注意力，不是这一个词缺在哪里。",
        "D": "这只是重新读一遍热力图：它描述了看没看，却没有检验“看了就会说”。干预要改变模型拿到的信息，再看输出。"}),
    hints=["干预的意思是：改变模型在某一步拿到的信息，其余不动，再看这一步的输出。",
           "两种情形里这个词都没有被说出来。哪一种改动能让它“有机会”被说出来？",
           "把信息强行送到解码器手里（只看这个词），再看它说不说：这样才把“看”和“说”分开。"],
))


# --------------------------------------------------------------------------- 2. a weak control
WEAK_CONTROL_REASONS = {
    "A": "峰值平均有 0.9 左右的权重，其余的键每个只分到很少一点：随机去掉一个，c_t 几乎不动，不管峰值特不特殊，"
         "输出都很少会变；要说明峰值特殊，得在拿走的权重一样多时比较（例如只看峰值不超过一半的步骤，"
         "那里等量对照能从其余的键里拿走和峰值一样多的权重）。",
    "B": "随机选的键有时恰好就是峰值，把“去掉峰值”的效果冲淡了。",
    "C": "双向编码器让每个键都带着整句话的信息，所以去掉哪个键都一样，去掉峰值也不例外。",
    "D": "随机数的种子固定为 0，每一步去掉的都是同一个位置，所以测不出差别。",
}

register(Exercise(
    id="nb07b_weak_control",
    notebook=NOTEBOOK,
    title="对照实验：为什么“随机去掉另一个键”还不够？(a weak control)",
    prompt="实验 1 里，luong-general 去掉峰值以后很多步骤的输出词变了，随机去掉另一个键几乎什么都不变。"
           "只凭这两个数，为什么还不能说“峰值是特殊的”？" + "；".join(f"{k}. {v}" for k, v in WEAK_CONTROL_REASONS.items()),
    solution="A",
    checker=reason_answer("A", WEAK_CONTROL_REASONS, why_not={
        "B": "remove_random 只在峰值以外的键里抽（见 helpers.analysis.probes）：它从来不会去掉峰值。",
        "C": "如果去掉哪个键都一样，去掉峰值也应该很少改变输出；可表里去掉峰值改变得多得多。",
        "D": "种子固定只让结果可以重复；每一步、每一句抽到的位置仍然不同。"}),
    hints=["一个对照要回答：“只是少了这么多权重”能不能解释这个效果？",
           "算一算：峰值占 0.9 时，一句 10 个词里其余每个键平均有多少权重？",
           "去掉一个只有 0.01 的键，c_t 几乎不变：这个对照“几乎不变”是注定的。"],
))
