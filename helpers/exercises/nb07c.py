"""Exercises of notebook 07c_to_transformer (scaled dot product, Q/K/V, self-attention).

* ``nb07c_word_order``   predict, then run: self-attention without positional encoding on the same
  words in reverse order. softmax(QKᵀ/√d_k)V treats the words as a set: permuting the rows of X permutes
  the rows of the output the same way and changes nothing else, so the answer follows from the formula
  (the reveal cell shows it on the notebook's X), and it is why the Transformer adds positional encoding.
"""

from __future__ import annotations

from helpers.exercises import Exercise, register
from helpers.exercises.kinds import reason_answer

NOTEBOOK = "07c_to_transformer"

WORD_ORDER_OPTIONS = {
    "A": "输出还是原来那 5 个向量，只是行的顺序也倒了过来：每个词的输出只取决于它自己的向量和整句话里有哪些向量，"
         "与词的先后无关。",
    "B": "输出完全不变，连行的顺序也不变：softmax 之后每一行都加起来等于 1。",
    "C": "输出变成另外 5 个向量：词序变了，每个词的上下文也就变了。",
    "D": "权重矩阵 A 的每一行都变成均匀的 1/5。",
}

register(Exercise(
    id="nb07c_word_order",
    notebook=NOTEBOOK,
    title="先预测：把词序倒过来，自注意力的输出会怎样？(self-attention and word order)",
    prompt="第 3 节的自注意力没有位置编码。把 X 的 5 行倒过来（句子变成 “. student a am i”），"
           "W_Q、W_K、W_V 不变，再算一遍 softmax(QKᵀ/√d_k)V。输出会怎样？"
           + "；".join(f"{k}. {v}" for k, v in WORD_ORDER_OPTIONS.items()),
    solution="A",
    checker=reason_answer("A", WORD_ORDER_OPTIONS, why_not={
        "B": "每一行加起来等于 1 是对的，但第 s 行属于第 s 个位置上的词：词换了位置，它的那一行也跟着换位置。",
        "C": "倒序以后，每个词打分用的键、加权求和用的值还是同样那 5 个（只是顺序不同），加权求和与顺序无关。",
        "D": "分数 q_sᵀk_r 只取决于两个词的向量，倒序并没有让它们变得一样。"}),
    hints=["写出第 s 个词的输出：Σ_r softmax_r(q_sᵀ k_r / √d_k) v_r。r 的先后顺序在这个式子里起作用吗？",
           "Q、K、V 的每一行都只由 X 的同一行算出：X 的行倒过来，Q、K、V 的行也倒过来。",
           "所以输出的行跟着倒过来，向量本身不变：没有位置编码，自注意力不知道词序。"],
))
