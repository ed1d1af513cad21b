# expect: clean
"""Storing through a boolean mask (`x[m] = v`, no read of `x[m]`) keeps static shapes."""
import torch


@torch.compile
def clip_negative(x: torch.Tensor) -> torch.Tensor:
    out = x.clone()
    negative = torch.zeros(x.shape, dtype=torch.bool) | (x < 0)
    out[negative] = 0.0
    return out * 2


def fullgraph_example():
    return clip_negative, (torch.randn(8),), {}
