# expect: FG105
"""`bool()` of a tensor outside an `if` test."""
import torch
from torch import nn


class AnyPositive(nn.Module):
    def forward(self, x):
        h = x * 2
        flag = bool((h > 0).any())  # <- FG105 GB0124
        return h, flag


def fullgraph_example():
    return AnyPositive(), (torch.randn(4),), {}
