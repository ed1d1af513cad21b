# expect: clean
"""A submodule's forward takes its flag from the parent's call: a Python bool, no break."""
import torch
from torch import nn


class Norm(nn.Module):
    def forward(self, x, center):
        if center:
            x = x - x.mean()
        return x


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = Norm()

    def forward(self, x):
        return self.norm(x, True) * 2 + self.norm(x, False)


def fullgraph_example():
    return Model(), (torch.randn(2, 4),), {}
