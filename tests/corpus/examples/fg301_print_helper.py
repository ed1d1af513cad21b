# expect: FG301
"""A print in a helper reached from the compiled function."""
import torch


def trace(name, value):
    print(name, value.shape)  # <- FG301 GB0059


@torch.compile
def step(x: torch.Tensor) -> torch.Tensor:
    y = x.relu()
    trace("y", y)
    return y + 1


def fullgraph_example():
    return step, (torch.randn(4),), {}
