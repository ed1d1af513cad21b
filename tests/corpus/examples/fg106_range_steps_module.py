# expect: FG106
"""The number of refinement steps arrives as a tensor argument."""
import torch
from torch import nn


class Refine(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, steps):
        for _ in range(steps):  # <- FG106 GB0059
            x = self.lin(x)
        return x


def fullgraph_example():
    return Refine(), (torch.randn(2, 4), torch.tensor(2)), {}
