# expect: clean
"""A diffusion timestep named `time` is a tensor argument, not the `time` module."""
import math

import torch
from torch import nn


class TimestepEmbedding(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.dim = dim
        self.proj = nn.Linear(dim, dim)

    def forward(self, time):
        half = self.dim // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half) / half)
        args = time.float()[:, None] * freqs[None]
        return self.proj(torch.cat([args.sin(), args.cos()], dim=-1))


def fullgraph_example():
    return TimestepEmbedding(), (torch.tensor([1, 10, 100]),), {}
