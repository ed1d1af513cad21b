# expect: FG101
"""`if ... or ...` over two tensor checks (non-finite guard)."""
import torch
from torch import nn


class Sanitize(nn.Module):
    def forward(self, x):
        h = x * 2
        if torch.isnan(h).any() or torch.isinf(h).any():  # <- FG101 GB0170
            h = torch.nan_to_num(h)
        return h + 1


def fullgraph_example():
    return Sanitize(), (torch.randn(4),), {}
