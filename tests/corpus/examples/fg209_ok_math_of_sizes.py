# expect: clean
"""`math` of Python numbers (a size, a constant, a setting) is folded while tracing: one graph."""
import math

import torch
from torch import nn


class ScaledDot(nn.Module):
    def __init__(self, dim: int = 4):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.scale = 1.0 / math.sqrt(dim)

    def forward(self, x):
        q = self.proj(x)
        scores = q @ q.transpose(-1, -2) / math.sqrt(q.shape[-1])
        return torch.softmax(scores * self.scale * math.pi, dim=-1)


def fullgraph_example():
    return ScaledDot(), (torch.randn(3, 4),), {}
