# expect: clean
"""Elementwise `==` reduced with `.all()` stays a tensor: one graph."""
import torch


@torch.compile
def same(rows: torch.Tensor, cols: torch.Tensor) -> torch.Tensor:
    rows = rows.sort().values
    equal = (rows == cols.sort().values).all()
    return torch.where(equal, rows * 0, rows + cols)


def fullgraph_example():
    x = torch.tensor([2, 0, 1])
    return same, (x, x.flip(0)), {}
