# expect: clean
"""`range()` over shapes, `len()` and ints is unrolled."""
import torch
from torch import nn


class Rows(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4)])

    def forward(self, x):
        for i in range(len(self.layers)):
            x = self.layers[i](x)
        for r in range(x.shape[0]):
            x[r] = x[r] * 2
        return x


def fullgraph_example():
    return Rows(), (torch.randn(2, 4),), {}
