# expect: FG102
"""`while` on a tensor condition."""
import torch


@torch.compile
def grow(x: torch.Tensor) -> torch.Tensor:
    while x.sum() < 10:  # <- FG102 GB0170
        x = x + 1
    return x


def fullgraph_example():
    return grow, (torch.zeros(4),), {}
