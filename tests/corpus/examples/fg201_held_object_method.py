# expect: FG201
"""A method of a plain helper object that `__init__` stores in an attribute (`self.norm.apply(x)`):
Dynamo inlines it, so `.item()` there breaks the graph."""
import torch
from torch import nn


class MaxNorm:
    def __init__(self, eps: float):
        self.eps = eps

    def apply(self, t: torch.Tensor) -> torch.Tensor:
        return t / (t.abs().max().item() + self.eps)  # <- FG201 GB0124


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.norm = MaxNorm(1e-6)

    def forward(self, x: torch.Tensor):
        return self.norm.apply(self.lin(x))


def fullgraph_example():
    return Block(), (torch.randn(2, 4),), {}
