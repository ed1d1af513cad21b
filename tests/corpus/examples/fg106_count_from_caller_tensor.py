# expect: FG106
"""The parent passes a tensor count: `range` over it reads the tensor's value."""
import torch
from torch import nn


class Repeat(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, reps):
        for _ in range(reps):  # <- FG106 GB0059
            x = self.lin(x)
        return x


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.rep = Repeat()

    def forward(self, x):
        return self.rep(x, (x > 0).sum())


def fullgraph_example():
    return Model(), (torch.randn(2, 4),), {}
