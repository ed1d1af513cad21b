# expect: clean
"""`clone()` is the traceable copy; deepcopy at construction time is outside the region."""
import copy

import torch
from torch import nn


class Ema(nn.Module):
    def __init__(self, template):
        super().__init__()
        self.shadow = copy.deepcopy(template)

    def forward(self, x):
        saved = x.clone()
        return self.shadow(saved) + x


def fullgraph_example():
    return Ema(nn.Linear(4, 4)), (torch.randn(2, 4),), {}
