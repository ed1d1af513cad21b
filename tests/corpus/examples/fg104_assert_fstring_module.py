# expect: FG104
"""An f-string message makes the tensor assert a real branch again."""
import torch
from torch import nn


class NonNegative(nn.Module):
    def forward(self, x):
        h = x.abs()
        assert (h >= 0).all(), f"negative values in {h.shape}"  # <- FG104 GB0170
        return h * 2


def fullgraph_example():
    return NonNegative(), (torch.randn(4),), {}
