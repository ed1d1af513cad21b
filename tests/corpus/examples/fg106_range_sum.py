# expect: FG106
"""`range()` over a tensor value."""
import torch


@torch.compile
def repeat_by_count(x: torch.Tensor) -> torch.Tensor:
    n = x.sum().int()
    for _ in range(n):  # <- FG106 GB0059
        x = x * 2
    return x


def fullgraph_example():
    return repeat_by_count, (torch.tensor([1.0, 2.0]),), {}
