# expect: FG201
"""`.item()` turns a tensor into a Python number."""
import torch


@torch.compile
def normalize(x: torch.Tensor) -> torch.Tensor:
    peak = x.abs().max().item()  # <- FG201 GB0124
    return x / (peak + 1e-6)


def fullgraph_example():
    return normalize, (torch.randn(4),), {}
