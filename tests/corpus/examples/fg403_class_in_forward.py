# expect: FG403
"""A local output class defined in forward."""
import torch
from torch import nn


class Head(nn.Module):
    def forward(self, x):
        h = x.relu()

        class Output:  # <- FG403 GB8977
            logits = None

        return h * 2


def fullgraph_example():
    return Head(), (torch.randn(4),), {}
