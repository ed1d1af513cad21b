# expect: FG406
"""Freezing an input tensor in forward."""
import torch
from torch import nn


class Freeze(nn.Module):
    def forward(self, x):
        h = x * 2
        x.requires_grad = False  # <- FG406 GB0206
        return h


def fullgraph_example():
    return Freeze(), (torch.randn(4),), {}
