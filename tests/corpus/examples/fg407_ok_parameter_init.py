# expect: clean
"""Parameters created in `__init__`."""
import torch
from torch import nn


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(4))

    def forward(self, x):
        return x * self.w


def fullgraph_example():
    return Scale(), (torch.randn(4),), {}
