# expect: FG305
"""`time.perf_counter()` in forward."""
import time

import torch
from torch import nn


class Timed(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.elapsed = 0.0

    def forward(self, x):
        start = time.perf_counter()  # <- FG305 GB0007
        h = self.lin(x)
        return h, start


def fullgraph_example():
    return Timed(), (torch.randn(2, 4),), {}
