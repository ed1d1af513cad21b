# expect: FG403
"""A class statement inside the compiled function."""
import torch


@torch.compile
def wrap(x: torch.Tensor) -> torch.Tensor:
    h = x + 1

    class Box:  # <- FG403 GB8977
        pass

    return h * 2


def fullgraph_example():
    return wrap, (torch.randn(4),), {}
