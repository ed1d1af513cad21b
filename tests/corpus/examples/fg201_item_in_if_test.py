# expect: FG201
"""`.item()` inside an `if` test: the break is the `.item()`, the test is then on a Python number."""
import torch


@torch.compile
def clip(x: torch.Tensor) -> torch.Tensor:
    h = x * 2
    if h.max().item() > 1.0:  # <- FG201 GB0124
        h = h / h.max()
    return h


def fullgraph_example():
    return clip, (torch.randn(4),), {}
