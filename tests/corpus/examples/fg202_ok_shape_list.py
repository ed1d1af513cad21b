# expect: clean
"""Lists built from shapes are not tensor data."""
import torch


@torch.compile
def flatten_tail(x: torch.Tensor) -> torch.Tensor:
    dims = list(x.shape)
    return x.reshape(dims[0], -1) * 2


def fullgraph_example():
    return flatten_tail, (torch.randn(2, 3, 4),), {}
