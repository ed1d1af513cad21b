# expect: FG102
"""Iterate until converged: the loop condition is a tensor."""
import torch
from torch import nn


class Shrink(nn.Module):
    def forward(self, x):
        while x.norm() > 1.0:  # <- FG102 GB0170
            x = x / 2
        return x


def fullgraph_example():
    return Shrink(), (torch.full((4,), 3.0),), {}
