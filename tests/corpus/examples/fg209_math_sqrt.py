# expect: FG209
"""An RMS scale computed with `math.sqrt` of a tensor: `math` takes a Python number, so it reads the
tensor's value (an implicit `.item()`), and Dynamo breaks there."""
import math

import torch
from torch import nn


class RMSScale(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        h = self.lin(x)
        s = math.sqrt(h.pow(2).mean())  # <- FG209 GB0033
        return h / s


def fullgraph_example():
    return RMSScale(), (torch.randn(2, 4),), {}
