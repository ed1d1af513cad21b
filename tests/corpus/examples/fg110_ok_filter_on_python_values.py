# expect: clean
"""A comprehension filtering Python values (layer indices) in compiled code is decided at trace time."""
import torch
from torch import nn


class EveryOther(nn.Module):
    def __init__(self, depth: int = 4):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(depth))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in [m for i, m in enumerate(self.layers) if i % 2 == 0]:
            x = layer(x)
        return x


def fullgraph_example():
    return EveryOther(), (torch.randn(2, 4),), {}
