# expect: FG104
"""`%`-formatted assert message on a tensor condition."""
import torch


@torch.compile
def probs(x: torch.Tensor) -> torch.Tensor:
    p = x.softmax(-1)
    assert (p <= 1).all(), "bad probabilities for shape %s" % (p.shape,)  # <- FG104 GB0170
    return p * 2


def fullgraph_example():
    return probs, (torch.randn(4),), {}
