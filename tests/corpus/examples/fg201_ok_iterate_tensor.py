# expect: clean
"""Iterating over a tensor's first dimension and tuple-unpacking shapes are static."""
import torch


@torch.compile
def rows(x: torch.Tensor) -> torch.Tensor:
    b, d = x.shape
    out = []
    for row in x:
        out.append(row * d)
    return torch.stack(out) + b


def fullgraph_example():
    return rows, (torch.randn(3, 4),), {}
