# expect: FG301
"""A print in a submodule's helper method, reached through the parent's forward."""
import torch
from torch import nn


class Inner(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def report(self, h):
        print("inner output", h.shape)  # <- FG301 GB0059

    def run(self, x):
        h = self.lin(x)
        self.report(h)
        return h


class Outer(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def forward(self, x):
        return self.inner.run(x) * 2


def fullgraph_example():
    return Outer(), (torch.randn(2, 4),), {}
