# expect: clean
"""Warning in `__init__` only."""
import warnings

import torch
from torch import nn


class Old(nn.Module):
    def __init__(self, legacy=True):
        super().__init__()
        if legacy:
            warnings.warn("legacy mode", DeprecationWarning)
        self.scale = 2.0

    def forward(self, x):
        return x * self.scale


def fullgraph_example():
    return Old(), (torch.randn(4),), {}
