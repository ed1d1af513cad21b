# expect: FG207
"""`a.equal(b)` kept as a flag still reads the data, even when no `if` uses it in the region."""
import torch
from torch import nn


class Twins(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 4)

    def forward(self, x):
        h = self.a(x)
        same = h.equal(self.b(x))  # <- FG207 GB0033
        return h * 2, same


def fullgraph_example():
    return Twins(), (torch.randn(2, 4),), {}
