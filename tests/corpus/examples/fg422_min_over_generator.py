# expect: FG422
"""The cheapest contraction order, picked as the minimum of (cost, order) pairs over a generator, as
pykeen's `get_optimal_sequence` does: Dynamo cannot reduce a generator of tuples."""
import itertools

import torch
from torch import nn


def estimate_cost(*shapes):
    return sum(s[0] * s[-1] for s in shapes)


class Contract(nn.Module):
    def forward(self, a, b, c):
        shapes = (a.shape, b.shape, c.shape)
        cost, order = min((estimate_cost(*(shapes[i] for i in p)), p) for p in itertools.permutations(range(3)))  # <- FG422 GB0059
        tensors = (a, b, c)
        return tensors[order[0]] * cost


def fullgraph_example():
    return Contract(), (torch.randn(2, 3), torch.randn(4, 5), torch.randn(3, 2)), {}
