# expect: FG201
"""Reading a property runs its getter in compiled code (Dynamo inlines it): a `.item()` there
breaks the graph of the `forward` that reads it."""
import torch
from torch import nn


class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_scale = nn.Parameter(torch.zeros(()))

    @property
    def scale(self):
        return float(self.log_scale.exp().item())  # <- FG201 GB0124

    def forward(self, x):
        return x * self.scale


def fullgraph_example():
    return Scaled(), (torch.randn(2, 4),), {}
