# expect: FG411
"""A memoizing decorator on a plain object's method keys its cache with `pickle.dumps`, a C
function Dynamo cannot trace (linear_operator's `@cached` shape)."""
import functools
import pickle

import torch
from torch import nn


def cached(name=None):
    def decorator(method):
        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            key = (name, pickle.dumps(kwargs))  # <- FG411 GB0007
            if key not in self.memo:
                self.memo[key] = method(self, *args, **kwargs)
            return self.memo[key]
        return wrapper
    return decorator


class Diagonal:
    def __init__(self, values):
        self.values = values
        self.memo = {}

    @cached(name="dense")
    def to_dense(self):
        return torch.diag_embed(self.values)


class Covariance(nn.Module):
    def forward(self, x, prior):
        return prior.to_dense() @ x.unsqueeze(-1)


def fullgraph_example():
    return Covariance(), (torch.randn(4), Diagonal(torch.rand(4))), {}
