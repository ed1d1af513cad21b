# expect: clean
"""Tensor logic with `&`/`torch.logical_*` and Python logic on shapes stay in the graph."""
import torch


@torch.compile
def band(x: torch.Tensor) -> torch.Tensor:
    inside = (x > -1) & (x < 1)
    outside = torch.logical_not(inside)
    square = x.dim() == 2 and x.shape[0] == x.shape[1]
    return torch.where(outside, x.sign(), x) * (2 if square else 1)


def fullgraph_example():
    return band, (torch.randn(3, 3),), {}
