# expect: FG101
"""Data-dependent `if` inside a helper method reached from forward."""
import torch
from torch import nn


class Rectify(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def _fix(self, h):
        if (h < 0).any():  # <- FG101 GB0170
            h = h.abs()
        return h

    def forward(self, x):
        return self._fix(self.proj(x)) * 2


def fullgraph_example():
    return Rectify(), (torch.randn(2, 4),), {}
