# expect: FG411
"""A memoising helper keys its cache with `pickle.dumps(kwargs)` (gpytorch's and linear_operator's
`@cached`): `_pickle.dumps` is a C builtin Dynamo cannot trace."""
import pickle

import torch
from torch import nn


class Cached(nn.Module):
    def __init__(self):
        super().__init__()
        self.cache = {}

    def forward(self, x, scale=2.0):
        key = pickle.dumps({"scale": scale})  # <- FG411 GB0007
        if key not in self.cache:
            self.cache[key] = scale
        return x * self.cache[key]


def fullgraph_example():
    return Cached(), (torch.randn(4),), {}
