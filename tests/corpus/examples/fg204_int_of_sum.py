# expect: FG204
"""`int()` of a tensor."""
import torch


@torch.compile
def count_scale(x: torch.Tensor) -> torch.Tensor:
    n = int((x > 0).sum())  # <- FG204 GB0124
    return x * n


def fullgraph_example():
    return count_scale, (torch.randn(4),), {}
