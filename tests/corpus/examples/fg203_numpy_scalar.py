# expect: FG201, FG203
"""`.numpy()` followed by `.item()` on the array: the value leaves the graph."""
import torch


@torch.compile
def scaled(x: torch.Tensor) -> torch.Tensor:
    total = x.numpy().sum().item()  # <- FG203 FG201 GB0033
    return x * total


def fullgraph_example():
    return scaled, (torch.randn(4),), {}
