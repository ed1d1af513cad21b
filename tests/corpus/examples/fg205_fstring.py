# expect: FG205
"""A tensor formatted into an f-string whose text is then used in the graph."""
import torch


@torch.compile
def tagged(x: torch.Tensor) -> torch.Tensor:
    y = x * 2
    return y * len(f"{y}")  # <- FG205 GB0088


def fullgraph_example():
    return tagged, (torch.randn(4),), {}
