# expect: FG404
"""An explicit `torch._dynamo.graph_break()`."""
import torch


@torch.compile
def split(x: torch.Tensor) -> torch.Tensor:
    h = x + 1
    torch._dynamo.graph_break()  # <- FG404 GB0025
    return h * 2


def fullgraph_example():
    return split, (torch.randn(4),), {}
