# expect: FG101
"""A tensor `if` inside a `for` body: Dynamo skips the whole function (GB7000)."""
import torch


@torch.compile
def accumulate(x: torch.Tensor) -> torch.Tensor:
    total = torch.zeros(())
    for i in range(3):
        if x[i] > 0:  # <- FG101 GB0170 GB7000
            total = total + x[i]
    return total


def fullgraph_example():
    return accumulate, (torch.randn(4),), {}
