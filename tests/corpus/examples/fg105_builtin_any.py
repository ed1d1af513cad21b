# expect: FG105
"""Python's `any()` over a tensor tests each element's truth value in turn."""
import torch


@torch.compile
def bump(x: torch.Tensor) -> torch.Tensor:
    y = x * 2
    if any(y > 0):  # <- FG105 GB0170
        y = y + 1
    return y


def fullgraph_example():
    return bump, (torch.randn(4),), {}
