# expect: FG207
"""A symmetry check compares two index tensors with `torch.equal` before using them."""
import torch


@torch.compile
def undirected(rows: torch.Tensor, cols: torch.Tensor) -> torch.Tensor:
    rows = rows.sort().values
    if not torch.equal(rows, cols.sort().values):  # <- FG207 GB0033
        return rows * 0
    return rows + cols


def fullgraph_example():
    x = torch.tensor([2, 0, 1])
    return undirected, (x, x.flip(0)), {}
