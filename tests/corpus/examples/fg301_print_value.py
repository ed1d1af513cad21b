# expect: FG301
"""Debug print of an intermediate tensor."""
import torch


@torch.compile
def layer(x: torch.Tensor) -> torch.Tensor:
    h = torch.tanh(x)
    print("h:", h)  # <- FG301 GB0059
    return h * 2


def fullgraph_example():
    return layer, (torch.randn(4),), {}
