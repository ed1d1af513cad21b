# expect: FG101
"""`if`/`elif` chain on tensor values in a module's forward: each test is its own break."""
import torch
from torch import nn


class Clamp(nn.Module):
    def forward(self, x):
        if x.max() > 10:  # <- FG101 GB0170
            return x / 10
        elif x.min() < -10:  # <- FG101 GB0170
            return x / -10
        return x * 2


def fullgraph_example():
    return Clamp(), (torch.randn(8),), {}
