# expect: FG413
"""A module enters a context-manager object its `__init__` made (a shared cache scope)."""
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
        self.scope = Scope()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        with self.scope:  # <- FG413 GB0142
            return self.proj(x)


def fullgraph_example():
    return Cached(), (torch.randn(2, 4),), {}
