"""Claims of notebooks/07c_to_transformer.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "07c_to_transformer.ipynb"

CLAIMS = [
    # 1. the scaled dot product is luong-dot's score
    Claim('3e4fe0c6', 'torch.allclose(r1.scores[0], by_hand, atol=1e-4)', "scaled dot-product scores by hand equal helpers'"),
    Claim('3e4fe0c6', 'torch.allclose(as_transformer.weights[0, 0], r1.weights[0], atol=1e-6)', 'the Transformer form (Q, K, V) gives the same weights'),
    Claim('3e4fe0c6', 'torch.allclose(as_transformer.context[0, 0], r1.context[0], atol=1e-5)', 'the Transformer form gives the same context'),
    Claim('3e4fe0c6', 'f"{(as_transformer.context[0, 0] - r1.context[0]).abs().max().item():.1e}" == "0.0e+00"', 'the printed largest difference of the two context vectors is 0'),
    Claim('3e4fe0c6', 'int(r1.weights[0].argmax()) == 0 and r1.weights[0, 0] > 0.99 and round(float(r1.weights[0, 0]), 3) == 0.996 and book.tgt_tokens[0] == "我"', 'at step 1 (generating 我) almost all the weight, 0.996, is on i'),
    # 2. self-attention
    Claim('85c07a3b', 'torch.allclose(r_self.weights[0], A, atol=1e-6) and torch.allclose(r_self.context[0], out, atol=1e-6)', "self-attention by hand equals helpers' (weights and output)"),
    Claim('85c07a3b', 'torch.allclose(A.sum(-1), torch.ones(len(book.src_tokens)))', 'each row of the self-attention matrix sums to 1'),
    # exercise 1, revealed: reversing the words reverses the rows of the output, nothing else
    Claim('fd23e136', 'torch.allclose(out_rev.flip(0), out, atol=1e-6) and (out_rev - out).abs().max().item() > 0.01', 'reversed input: the same output rows in reverse order, and not the same rows in place'),
]
