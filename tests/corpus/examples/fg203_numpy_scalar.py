# expect: FG203
"""`.numpy()` followed by a Python scalar out of the array."""
import torch


@torch.compile
def scaled(x: torch.Tensor) -> torch.Tensor:
    total = x.numpy().sum().item()  # <- FG203 GB0033
    return x * total


def fullgraph_example():
    return scaled, (torch.randn(4),), {}
