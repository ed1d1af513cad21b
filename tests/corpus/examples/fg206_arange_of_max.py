# expect: FG206
"""Positions up to the longest predicted length: the size is a tensor computed in the region."""
import torch


@torch.compile
def positions(durations: torch.Tensor) -> torch.Tensor:
    lengths = durations.sum(dim=1).long()
    steps = torch.arange(lengths.max())  # <- FG206 GB0033
    return steps.unsqueeze(0) < lengths.unsqueeze(1)


def fullgraph_example():
    return positions, (torch.tensor([[1.0, 2.0], [3.0, 1.0]]),), {}
