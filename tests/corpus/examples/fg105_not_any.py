# expect: FG105
"""`not` on a tensor truth value."""
import torch


@torch.compile
def empty_flag(x: torch.Tensor):
    h = x + 1
    empty = not h.any()  # <- FG105 GB0033
    return h, empty


def fullgraph_example():
    return empty_flag, (torch.randn(4),), {}
