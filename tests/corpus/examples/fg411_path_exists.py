# expect: FG411
"""A file-system check in forward (a cached table on disk): `posix.stat` is a C builtin."""
import os

import torch
from torch import nn


class Table(nn.Module):
    def forward(self, x):
        if os.path.exists("/nonexistent/table.pt"):  # <- FG411 GB0007
            return x * 2
        return x + 1


def fullgraph_example():
    return Table(), (torch.randn(4),), {}
