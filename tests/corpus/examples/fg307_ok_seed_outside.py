# expect: clean
"""Seeding before calling the compiled function."""
import torch


@torch.compile
def sample(x: torch.Tensor) -> torch.Tensor:
    return x + torch.rand(4)


def fullgraph_example():
    torch.manual_seed(0)
    return sample, (torch.randn(4),), {}
