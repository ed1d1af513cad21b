# expect: FG306
"""A `random.randint` draw used as a slice bound, an index or a size: Dynamo traces the draw as a
graph value and reads it there. A draw bound on one side of an `if` keeps its kind after it."""
import random

import torch
from torch import nn


class RandomCrop(nn.Module):
    def forward(self, x):
        if self.training:
            start = random.randint(0, 2)
        else:
            start = 1
        return x[..., start:start + 3]  # <- FG306 GB0213


class RandomTail(nn.Module):
    def forward(self, x):
        s = random.randint(0, 3)
        return x[:, s:]  # <- FG306 GB0124


class RandomRow(nn.Module):
    def forward(self, x):
        k = random.randint(0, 3)
        return x[k] * 2  # <- FG306 GB0033


class RandomNarrow(nn.Module):
    def forward(self, x):
        n = random.randint(1, 3)
        return x.narrow(1, 0, n)  # <- FG306 GB0033


class ScaledByDraw(nn.Module):
    def forward(self, x):
        s = random.uniform(0.5, 1.5)
        return x * s


def fullgraph_example():
    x = torch.randn(4, 6)
    return [(RandomCrop(), (x,), {}), (RandomTail(), (x,), {}), (RandomRow(), (x,), {}),
            (RandomNarrow(), (x,), {}), (ScaledByDraw(), (x,), {})]
