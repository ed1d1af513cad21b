# expect: FG308
"""A generator `__init__` stores on `self`, or one made at module level, is as opaque to Dynamo as
one made in `forward`: reseeding it, or handing it to a random op, breaks."""
import torch
from torch import nn

NOISE = torch.Generator()


class Reseeded(nn.Module):
    def __init__(self):
        super().__init__()
        self.gen = torch.Generator()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        self.gen.manual_seed(1)  # <- FG308 GB7650
        h = self.lin(x)
        return h + torch.rand(h.shape, generator=NOISE)  # <- FG308 GB0055


def fullgraph_example():
    return Reseeded(), (torch.randn(2, 4),), {}
