# expect: FG306
"""Python's `random.random()` for stochastic depth."""
import random

import torch
from torch import nn


class DropPath(nn.Module):
    def forward(self, x):
        keep = random.random()  # <- FG306 GB0007
        return x * keep


def fullgraph_example():
    return DropPath(), (torch.randn(4),), {}
