# expect: FG453
"""Indexing with a boolean mask."""
import torch


@torch.compile
def positives(x: torch.Tensor) -> torch.Tensor:
    h = x + 1
    return h[h > 0] * 2  # <- FG453 GB0036


def fullgraph_example():
    return positives, (torch.randn(8),), {}
