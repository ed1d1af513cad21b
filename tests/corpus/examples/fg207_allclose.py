# expect: FG207
"""A tolerance check with `allclose`: the Python bool comes from the data."""
import torch


@torch.compile
def settle(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    x = x * 2
    done = x.allclose(y)  # <- FG207 GB0033
    return x + 1 if done else x - 1


def fullgraph_example():
    x = torch.ones(3)
    return settle, (x, 2 * x), {}
