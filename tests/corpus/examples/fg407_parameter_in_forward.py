# expect: FG407
"""Building an `nn.Parameter` inside forward."""
import torch
from torch import nn


class Lazy(nn.Module):
    def forward(self, x):
        w = nn.Parameter(torch.ones(x.shape[-1]))  # <- FG407 GB0264
        return x * w


def fullgraph_example():
    return Lazy(), (torch.randn(4),), {}
