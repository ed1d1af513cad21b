# expect: FG303
"""A deprecation warning for a flag, raised in forward."""
import warnings

import torch
from torch import nn


class Old(nn.Module):
    def forward(self, x, return_dict=None):
        h = x.relu()
        if return_dict is not None:
            warnings.warn("return_dict is deprecated", FutureWarning)  # <- FG303 GB0007
        return h * 2


def fullgraph_example():
    return Old(), (torch.randn(4),), {"return_dict": True}
