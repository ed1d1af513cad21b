# expect: FG103
"""Ternary on a tensor comparison inside forward."""
import torch
from torch import nn


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        h = self.lin(x)
        h = h.relu() if h.mean() > 0 else h.tanh()  # <- FG103 GB0170
        return h * 2


def fullgraph_example():
    return Gate(), (torch.randn(2, 4),), {}
