# expect: FG301
"""A progress print inside a loop skips the whole frame (GB7000)."""
import torch
from torch import nn


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4)])

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            print("layer", i)  # <- FG301 GB0059 GB7000
        return x


def fullgraph_example():
    return Stack(), (torch.randn(2, 4),), {}
