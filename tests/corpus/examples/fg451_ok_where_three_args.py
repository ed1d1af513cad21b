# expect: clean
"""Three-argument `torch.where` keeps a static shape."""
import torch


@torch.compile
def route(x: torch.Tensor) -> torch.Tensor:
    return torch.where(x > 0, x, torch.zeros_like(x)) * 2


def fullgraph_example():
    return route, (torch.randn(8),), {}
