# expect: clean
"""Asserts Dynamo folds while tracing: `len()` of a module container, `is not None`, a dict or list
of constants, and an `if` (not an assert) on a module."""
import torch
from torch import nn


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(2))
        self.norm = nn.LayerNorm(4)
        self.sizes = {"hidden": 4}
        self.pairs = [(0, 1), (1, 0)]

    def forward(self, x):
        assert len(self.layers) > 0, "no layers"
        assert self.norm is not None
        assert self.sizes and self.pairs
        if self.norm:
            x = self.norm(x)
        for layer in self.layers:
            x = layer(x).relu()
        return x


def fullgraph_example():
    return Stack(), (torch.randn(2, 4),), {}
