# expect: clean
"""A non-string message is fine when the condition is a shape check."""
import torch


@torch.compile
def flat(x: torch.Tensor) -> torch.Tensor:
    assert x.dim() == 1, x.shape
    return x * 2


def fullgraph_example():
    return flat, (torch.randn(4),), {}
