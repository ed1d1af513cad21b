# expect: FG402
"""A forward that yields each layer's output (streaming style)."""
import torch
from torch import nn


class Stream(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
            yield x  # <- FG402 GB0003


def fullgraph_example():
    return Stream(), (torch.randn(2, 4),), {}
