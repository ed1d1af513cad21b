# expect: clean
"""Identity checks with `is` are static."""
import torch


@torch.compile
def maybe_copy(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x is y:
        return x * 2
    return x + y


def fullgraph_example():
    t = torch.randn(4)
    return maybe_copy, (t, t), {}
