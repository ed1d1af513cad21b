# expect: FG108
"""Tensor assert whose message is not a string literal."""
import torch


@torch.compile
def bounded(x: torch.Tensor) -> torch.Tensor:
    y = x + 1
    assert x.sum() > -100, x.shape  # <- FG108 GB0170
    return y * 2


def fullgraph_example():
    return bounded, (torch.randn(4),), {}
