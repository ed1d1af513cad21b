# expect: FG205
"""`%` formatting of a tensor."""
import torch


@torch.compile
def describe(x: torch.Tensor):
    y = x + 1
    return y, "value: %s" % y  # <- FG205 GB0208


def fullgraph_example():
    return describe, (torch.randn(4),), {}
