"""helpers.exercises.reveals.blind_bleu: the 01 reveal that decodes with s_0 set to zeros."""

import torch

from helpers.corpus.vocab import build_vocabs
from helpers.exercises.reveals import blind_bleu
from helpers.seq2seq import Seq2Seq


def _tiny_model():
    torch.manual_seed(0)
    src, tgt = build_vocabs()
    model = Seq2Seq("none", len(src), len(tgt), emb_size=8, hidden_size=8, bidirectional=True)
    model.src_vocab, model.tgt_vocab = src, tgt
    return model.eval()


def test_blind_bleu_returns_two_scores_and_removes_its_hook():
    model = _tiny_model()
    normal, blind = blind_bleu(model=model, n=5)
    assert 0.0 <= normal <= 1.0 and 0.0 <= blind <= 1.0
    assert not model.encoder._forward_hooks     # the model is left as it was
