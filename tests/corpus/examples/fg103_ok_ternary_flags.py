# expect: clean
"""Ternaries on `self.training`, `is None` and shapes are fine."""
import torch
from torch import nn


class Mix(nn.Module):
    def forward(self, x, bias=None):
        scale = 0.5 if self.training else 1.0
        x = x if bias is None else x + bias
        return x * scale if x.shape[-1] == 4 else x


def fullgraph_example():
    return Mix(), (torch.randn(4),), {}
