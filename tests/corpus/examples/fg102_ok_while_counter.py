# expect: clean
"""A `while` on a Python int is unrolled by Dynamo."""
import torch


@torch.compile
def repeat(x: torch.Tensor) -> torch.Tensor:
    i = 0
    while i < 3:
        x = x * 2
        i += 1
    return x


def fullgraph_example():
    return repeat, (torch.randn(4),), {}
