# expect: FG453
"""Dropping self-loops: a mask selects columns of an edge index (`x[:, mask]`)."""
import torch


@torch.compile
def drop_loops(edge_index: torch.Tensor) -> torch.Tensor:
    mask = edge_index[0] != edge_index[1]
    return edge_index[:, mask] + 0  # <- FG453 GB0036


def fullgraph_example():
    return drop_loops, (torch.tensor([[0, 1, 2, 2], [0, 2, 1, 2]]),), {}
