# expect: clean
"""A context-manager object made while tracing is entered without a break."""
import torch
from torch import nn


class Scope:
    def __init__(self):
        self.depth = 0

    def __enter__(self):
        self.depth += 1
        return self

    def __exit__(self, *exc):
        self.depth -= 1


class Cached(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        with Scope():
            return self.proj(x)


def fullgraph_example():
    return Cached(), (torch.randn(2, 4),), {}
