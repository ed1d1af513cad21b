# expect: FG406
"""Setting `requires_grad` on an intermediate."""
import torch


@torch.compile
def leaf(x: torch.Tensor) -> torch.Tensor:
    y = x + 1
    y.requires_grad = True  # <- FG406 GB0206
    return y * 2


def fullgraph_example():
    return leaf, (torch.randn(4),), {}
