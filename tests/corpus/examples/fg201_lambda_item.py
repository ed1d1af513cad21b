# expect: FG201
"""A lambda bound to a local name and called: Dynamo inlines its body, so `.item()` there breaks
the graph (the parameter holds the tensor the call passes)."""
import torch
from torch import nn


class Scale(nn.Module):
    def forward(self, x: torch.Tensor):
        scale = lambda t: t * t.abs().max().item()  # noqa: E731  # <- FG201 GB0124
        return scale(x * 2) + 1


def fullgraph_example():
    return Scale(), (torch.randn(4),), {}
