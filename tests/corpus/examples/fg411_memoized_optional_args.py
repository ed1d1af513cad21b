# expect: FG411
"""A memoizing decorator written as libraries write them: `@cached(name=...)` forwards to a helper
that, called without the method, returns a `functools.partial` of itself, then wraps the method
in a def keyed with `pickle.dumps`, a C function Dynamo cannot trace (linear_operator's shape)."""
import functools
import pickle

import torch
from torch import nn


def cached(method=None, name=None, ignore_args=False):
    if ignore_args:
        return _cached_ignore_args(method=method, name=name)
    return _cached(method=method, name=name)


def _cached(method=None, name=None):
    if method is None:
        return functools.partial(_cached, name=name)

    @functools.wraps(method)
    def g(self, *args, **kwargs):
        key = (name, pickle.dumps(kwargs))  # <- FG411 GB0007
        if key not in self.memo:
            self.memo[key] = method(self, *args, **kwargs)
        return self.memo[key]

    return g


def _cached_ignore_args(method=None, name=None):
    if method is None:
        return functools.partial(_cached_ignore_args, name=name)

    @functools.wraps(method)
    def g(self, *args, **kwargs):
        if name not in self.memo:
            self.memo[name] = method(self, *args, **kwargs)
        return self.memo[name]

    return g


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
