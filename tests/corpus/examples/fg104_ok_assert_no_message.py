# expect: clean
"""An assert on a tensor without a message is lowered by Dynamo too: no break."""
import torch
from torch import nn


class Probs(nn.Module):
    def forward(self, x):
        p = x.softmax(-1)
        assert (p >= 0).all()
        return p * 2


def fullgraph_example():
    return Probs(), (torch.randn(2, 4),), {}
