# expect: FG418
"""Positions made on the process's default device, read inside `forward`: Dynamo does not fold
`torch.get_default_device()` into a constant."""
import torch
from torch import nn


class Positions(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        device = torch.get_default_device()  # <- FG418 GB0208
        return x + torch.arange(x.shape[-1], device=device)


def fullgraph_example():
    return Positions(), (torch.randn(2, 5),), {}
