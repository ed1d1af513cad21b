# expect: clean
"""Torch's own RNG stays in the graph."""
import torch
from torch import nn


class DropPath(nn.Module):
    def forward(self, x):
        keep = torch.rand(x.shape[0], 1) > 0.1
        return x * keep / 0.9


def fullgraph_example():
    return DropPath(), (torch.randn(2, 4),), {}
