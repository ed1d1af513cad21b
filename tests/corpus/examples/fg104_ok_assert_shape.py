# expect: clean
"""Asserts on shapes are checked at trace time."""
import torch


@torch.compile
def square(x: torch.Tensor) -> torch.Tensor:
    assert x.dim() == 2, "expected a matrix"
    assert x.shape[0] == x.shape[1], "expected a square matrix"
    return x @ x


def fullgraph_example():
    return square, (torch.randn(3, 3),), {}
