# expect: FG202
"""`.tolist()` of routing indices (MoE style) is a data-dependent operator."""
import torch
from torch import nn


class Route(nn.Module):
    def forward(self, x):
        top = x.argmax(-1)
        experts = top.tolist()  # <- FG202 GB0033
        return x * len(experts)


def fullgraph_example():
    return Route(), (torch.randn(3, 4),), {}
