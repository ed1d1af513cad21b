# expect: FG202
"""`.tolist()` of a float tensor."""
import torch


@torch.compile
def first_weight(x: torch.Tensor) -> torch.Tensor:
    values = x.softmax(-1).tolist()  # <- FG202 GB0109
    return x * values[0]


def fullgraph_example():
    return first_weight, (torch.randn(4),), {}
