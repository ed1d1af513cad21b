# expect: FG103
"""A conditional expression on a tensor value."""
import torch


@torch.compile
def saturate(x: torch.Tensor) -> torch.Tensor:
    y = x * 2
    return y / y.max() if y.max() > 1 else y  # <- FG103 GB0170


def fullgraph_example():
    return saturate, (torch.randn(4),), {}
