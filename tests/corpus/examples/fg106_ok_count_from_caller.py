# expect: clean
"""A submodule's repeat count comes from the parent's call as a Python int: `range` unrolls."""
import torch
from torch import nn


class Repeat(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, reps):
        for _ in range(reps):
            x = self.lin(x)
        return x


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.rep = Repeat()

    def forward(self, x):
        return self.rep(x, len(x.shape))


def fullgraph_example():
    return Model(), (torch.randn(2, 4),), {}
