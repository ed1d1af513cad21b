# expect: FG201
"""`.item()` inside a loop body: the whole forward falls back to eager (GB7000)."""
import torch
from torch import nn


class Decay(nn.Module):
    def forward(self, x):
        for _ in range(2):
            x = x * x.mean().item()  # <- FG201 GB0124 GB7000
        return x


def fullgraph_example():
    return Decay(), (torch.randn(4),), {}
