# expect: FG414
"""A pooling step squares the adjacency and returns it sparse (a conversion to a sparse tensor)."""
import torch
from torch import nn


class Augment(nn.Module):
    def forward(self, x, adj):
        adj = adj * 0.5
        return (adj @ adj).to_sparse_coo(), x @ x.T  # <- FG414 GB0277 GB0015


def fullgraph_example():
    return Augment(), (torch.randn(3, 4), torch.rand(3, 3)), {}
