# expect: FG409
"""The body of a disabled function runs eagerly: only the call breaks, not the print inside."""
import torch
from torch import nn


class Model(nn.Module):
    @torch.compiler.disable
    def log_stats(self, h):
        print("mean", h.mean())
        return h

    def forward(self, x):
        h = x.relu()
        h = self.log_stats(h)  # <- FG409 GB0099
        return h * 2


def fullgraph_example():
    return Model(), (torch.randn(4),), {}
