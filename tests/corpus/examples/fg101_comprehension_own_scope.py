# expect: FG101
"""A comprehension's loop variable is its own: the tensor `x` outside it is still a tensor after
`[x for x in range(3)]`, and branching on it breaks."""
import torch


@torch.compile
def scaled(x: torch.Tensor) -> torch.Tensor:
    steps = [x for x in range(3)]
    if x.max() > len(steps):  # <- FG101 GB0170
        return x / len(steps)
    return x


def fullgraph_example():
    return scaled, (torch.randn(4),), {}
