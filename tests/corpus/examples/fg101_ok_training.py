# expect: clean
"""`self.training`, `is None` and `isinstance` tests are Python constants for Dynamo."""
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(0.1)

    def forward(self, x, mask=None, scale=None):
        if self.training:
            x = self.drop(x)
        if mask is not None:
            x = x.masked_fill(mask, 0.0)
        if isinstance(scale, float):
            x = x * scale
        return x


def fullgraph_example():
    return Block(), (torch.randn(4),), {"mask": torch.rand(4) > 0.5, "scale": 0.5}
