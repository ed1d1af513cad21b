# expect: FG108
"""A tuple as the assert message."""
import torch


@torch.compile
def bounded(x: torch.Tensor) -> torch.Tensor:
    y = x + 1
    assert (x > -100).all(), (x.shape, "out of range")  # <- FG108 GB0170
    return y * 2


def fullgraph_example():
    return bounded, (torch.randn(4),), {}
