# expect: clean
"""An f-string of a tensor that only leaves the function does not break."""
import torch


@torch.compile
def tagged(x: torch.Tensor):
    y = x * 2
    return y, f"result {y}"


def fullgraph_example():
    return tagged, (torch.randn(4),), {}
