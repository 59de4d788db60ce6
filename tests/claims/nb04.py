"""Claims of notebooks/04_framework.ipynb: checked in the kernel right after their cell runs (tests/claims)."""

from helpers.tools.notebooks import Claim

NOTEBOOK = "04_framework.ipynb"

CLAIMS = [
    # cell 13
    Claim('a2f075aa', 'np.allclose(res.scores, scores)', "the hand-computed scores equal retrieve()'s"),
    Claim('a2f075aa', 'np.allclose(res.alpha, alpha)', "the hand-computed weights equal retrieve()'s"),
    Claim('a2f075aa', 'np.allclose(res.result, result)', "the hand-computed result equals retrieve()'s"),
    # the kernel-regression cell (section 3)
    Claim('05244035', 'not np.isclose(y_train, pred[0]).any() and abs(alpha_x.sum() - 1) < 1e-9', 'the prediction is a new value, not one of the y_i'),
    # cell 27
    Claim('6bd453b7', 'torch.allclose(out.weights[0], alpha_t, atol=1e-6)', "Attention('dot') gives the hand-computed weights"),
    Claim('6bd453b7', 'torch.allclose(out.context[0], c_t, atol=1e-6)', "Attention('dot') gives the hand-computed context"),
    Claim('6bd453b7', 'src[int(hard_out.weights[0].argmax())] == "am"', 'hard attention looks only at am'),
    # cell 30
    Claim('00ce3696', 'np.allclose(same.weights[0].numpy(), toy_res.alpha, atol=1e-6)', 'video retrieval is dot-product attention: same weights'),
    Claim('00ce3696', 'np.allclose(same.context[0].numpy(), toy_res.result, atol=1e-6)', 'video retrieval is dot-product attention: same result'),
    # exercise reveals
    Claim('187705d0', 'np.all((V.min(axis=0) <= blend) & (blend <= V.max(axis=0))) and not any(np.allclose(blend, v) for v in V)', 'the blend lies between the videos and is no video'),
    Claim('4a8645a6', 'not np.any(hard_change) and np.abs(soft_change).max() > 0', 'a nudge moves the soft result, not the hard one'),
]
