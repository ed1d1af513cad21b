# expect: FG409
"""Calling a `torch.compiler.disable`d function from the region."""
import torch


@torch.compiler.disable
def host_side(x):
    return x * 2


@torch.compile
def step(x: torch.Tensor) -> torch.Tensor:
    h = x + 1
    return host_side(h) + 1  # <- FG409 GB0098


def fullgraph_example():
    return step, (torch.randn(4),), {}
