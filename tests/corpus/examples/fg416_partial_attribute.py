# expect: FG416
"""A conditioned network is a `functools.partial` that copies attributes of the network it wraps,
as pyro's conditional transforms do: Dynamo cannot set attributes on a partial object."""
from functools import partial

import torch
from torch import nn


class Made(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.permutation = torch.arange(4)

    def forward(self, x, context):
        return self.proj(x) + context


class Conditional(nn.Module):
    def __init__(self):
        super().__init__()
        self.nn = Made()

    def forward(self, x, context):
        cond_nn = partial(self.nn, context=context)
        cond_nn.permutation = self.nn.permutation  # <- FG416 GB0467
        return cond_nn(x)[..., self.nn.permutation]


def fullgraph_example():
    return Conditional(), (torch.randn(2, 4), torch.randn(2, 4)), {}
