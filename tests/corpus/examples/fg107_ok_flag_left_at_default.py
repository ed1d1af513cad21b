# expect: clean
"""`merge(safe_merge=False)` checks the merged weights for NaNs only when asked; every compiled call
leaves the flag at its default, so Dynamo never evaluates the tensor test."""
import torch
from torch import nn


class Adapter(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = nn.Linear(4, 4)
        self.delta = nn.Parameter(torch.zeros(4, 4))

    def merge(self, weight, safe_merge=False):
        merged = weight + self.delta
        if safe_merge and not torch.isfinite(merged).all():
            raise ValueError("NaNs detected in the merged weights")
        return merged

    def forward(self, x):
        return x @ self.merge(self.base.weight).T


def fullgraph_example():
    return Adapter(), (torch.randn(2, 4),), {}
