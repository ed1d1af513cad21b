# expect: FG204
"""`float()` of a reduction inside forward."""
import torch
from torch import nn


class Center(nn.Module):
    def forward(self, x):
        mu = float(x.mean())  # <- FG204 GB0124
        return x - mu


def fullgraph_example():
    return Center(), (torch.randn(4),), {}
