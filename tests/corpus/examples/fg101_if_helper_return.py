# expect: FG101
"""The tested value comes back from a helper function that returns a tensor."""
import torch


def normalize(x):
    return x / (x.norm() + 1e-6)


@torch.compile
def direction(x: torch.Tensor) -> torch.Tensor:
    u = normalize(x)
    if u[0] < 0:  # <- FG101 GB0170
        u = -u
    return u


def fullgraph_example():
    return direction, (torch.randn(4),), {}
