# expect: FG452
"""`.unique()` of expert choices."""
import torch
from torch import nn


class Experts(nn.Module):
    def forward(self, logits):
        used = logits.argmax(-1).unique()  # <- FG452 GB0036
        return used * 2


def fullgraph_example():
    return Experts(), (torch.randn(6, 3),), {}
