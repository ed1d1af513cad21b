# expect: FG101
"""An object made at module level: a tensor its class's `__init__` stores is a tensor when
`forward` reads it, so a branch on it branches on a tensor."""
import torch
from torch import nn


class Tally:
    def __init__(self):
        self.total = torch.zeros(())


TALLY = Tally()


class Counter(nn.Module):
    def forward(self, x):
        if TALLY.total > 0:  # <- FG101 GB0170
            x = x + 1
        return x


def fullgraph_example():
    return Counter(), (torch.randn(8),), {}
