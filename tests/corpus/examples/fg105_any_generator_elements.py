# expect: FG105
"""`any()` over a generator that iterates a tensor tests each element's truth value in turn."""
import torch


@torch.compile
def double_if_positive(x: torch.Tensor) -> torch.Tensor:
    if any(v > 0 for v in x):  # <- FG105 GB0170
        return x * 2
    return x


def fullgraph_example():
    return double_if_positive, (torch.randn(4),), {}
