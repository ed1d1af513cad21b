# expect: FG401
"""Deep-copying a cached state tensor in forward (EMA style)."""
import copy

import torch
from torch import nn


class Ema(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("state", torch.zeros(4))

    def forward(self, x):
        prev = copy.deepcopy(self.state)  # <- FG401 GB4198
        return 0.9 * prev + 0.1 * x


def fullgraph_example():
    return Ema(), (torch.randn(4),), {}
