# expect: FG101
"""Tensors obtained by tuple-unpacking `chunk()`."""
import torch


@torch.compile
def gate(x: torch.Tensor) -> torch.Tensor:
    a, b = x.chunk(2)
    if torch.any(a > b):  # <- FG101 GB0170
        return a - b
    return a + b


def fullgraph_example():
    return gate, (torch.randn(4),), {}
