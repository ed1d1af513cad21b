# expect: FG111
"""`assert` on a list of modules built in `forward` (the last operand of an `and`)."""
import torch
from torch import nn


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.out = nn.Linear(4, 2)

    def forward(self, x):
        stages = [self.proj, self.out]
        assert x.dim() == 2 and stages, "bad input"  # <- FG111 GB0055
        for stage in stages:
            x = stage(x)
        return x


def fullgraph_example():
    return Head(), (torch.randn(2, 4),), {}
