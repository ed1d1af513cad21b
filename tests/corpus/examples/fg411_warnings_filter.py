# expect: FG411
"""Silencing a warning inside compiled code: the filter setter calls C's `_filters_mutated`, which
Dynamo skips (a break), while `warnings.catch_warnings()` alone traces."""
import warnings

import torch
from torch import nn


class Grid(nn.Module):
    def forward(self, x):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # <- FG411 GB0007
            y = x * 2
        return y + 1


def fullgraph_example():
    return Grid(), (torch.randn(3),), {}
