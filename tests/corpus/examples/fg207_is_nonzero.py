# expect: FG207
"""`is_nonzero()` on a one-element tensor reads its value into a Python bool."""
import torch


@torch.compile
def halve(x: torch.Tensor) -> torch.Tensor:
    total = x.sum()
    if total.is_nonzero():  # <- FG207 GB0033
        return x / total
    return x


def fullgraph_example():
    return halve, (torch.ones(4),), {}
