# expect: clean
"""A disabled function that the region does not call."""
import torch


@torch.compiler.disable
def host_side(x):
    return x * 2


@torch.compile
def step(x: torch.Tensor) -> torch.Tensor:
    return x + 1


def fullgraph_example():
    return step, (torch.randn(4),), {}
