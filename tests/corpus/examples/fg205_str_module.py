# expect: FG205
"""`str()` of a tensor in forward."""
import torch
from torch import nn


class Describe(nn.Module):
    def forward(self, x):
        y = x + 1
        text = str(y)  # <- FG205 GB0059
        return y, text


def fullgraph_example():
    return Describe(), (torch.randn(4),), {}
