# expect: FG101
"""The parent passes a tensor for the flag: the submodule's `if` needs its value."""
import torch
from torch import nn


class Norm(nn.Module):
    def forward(self, x, center):
        if center:  # <- FG101 GB0170
            x = x - x.mean()
        return x


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = Norm()

    def forward(self, x):
        return self.norm(x, x.sum() > 0) * 2


def fullgraph_example():
    return [(Model(), (torch.ones(2, 4),), {}), (Model(), (-torch.ones(2, 4),), {})]
