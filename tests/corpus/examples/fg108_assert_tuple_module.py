# expect: FG108
"""A (reason, rank) tuple as the assert message."""
import torch
from torch import nn


class Finite(nn.Module):
    def forward(self, x):
        h = x * 2
        assert torch.isfinite(h).all(), ("non-finite values", h.dim())  # <- FG108 GB0170
        return h


def fullgraph_example():
    return Finite(), (torch.randn(4),), {}
