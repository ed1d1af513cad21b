# expect: clean
"""torch 2.13 lowers `assert <tensor>, "literal"` to an async assert itself: no break."""
import torch


@torch.compile
def checked(x: torch.Tensor) -> torch.Tensor:
    y = x + 1
    assert x.sum() > -100, "sum out of range"
    return y * 2


def fullgraph_example():
    return checked, (torch.randn(4),), {}
