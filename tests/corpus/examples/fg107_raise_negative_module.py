# expect: FG107
"""Reject negative variances in a module."""
import torch
from torch import nn


class Gaussian(nn.Module):
    def forward(self, mean, var):
        if (var < 0).any():  # <- FG107 GB0170
            raise RuntimeError("variance must be non-negative")
        return mean + var.sqrt() * torch.randn_like(mean)


def fullgraph_example():
    return Gaussian(), (torch.zeros(4), torch.ones(4)), {}
