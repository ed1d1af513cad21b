# expect: FG304
"""`sys.stderr.write` inside forward."""
import sys

import torch
from torch import nn


class Noisy(nn.Module):
    def forward(self, x):
        h = x.exp()
        sys.stderr.write("exp done\n")  # <- FG304 GB0156
        return h.log()


def fullgraph_example():
    return Noisy(), (torch.randn(4),), {}
