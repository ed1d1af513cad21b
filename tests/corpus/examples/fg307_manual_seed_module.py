# expect: FG307
"""A module that seeds its own noise in forward."""
import torch
from torch import nn


class SeededNoise(nn.Module):
    def __init__(self, seed=1234):
        super().__init__()
        self.seed = seed

    def forward(self, x):
        h = x * 2
        torch.manual_seed(self.seed)  # <- FG307 GB0007
        return h + torch.randn_like(h)


def fullgraph_example():
    return SeededNoise(), (torch.randn(4),), {}
