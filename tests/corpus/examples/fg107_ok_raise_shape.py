# expect: clean
"""Raising on shapes or flags is decided at trace time."""
import torch


@torch.compile
def matvec(m: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    if m.dim() != 2 or v.dim() != 1:
        raise ValueError("expected a matrix and a vector")
    if m.shape[1] != v.shape[0]:
        raise ValueError("size mismatch")
    return m @ v


def fullgraph_example():
    return matvec, (torch.randn(3, 4), torch.randn(4)), {}
