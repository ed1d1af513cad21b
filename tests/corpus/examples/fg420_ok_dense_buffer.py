# expect: clean
"""The adjacency is built sparse in `__init__` but stored dense (`.to_dense()`): `forward` reads a
dense buffer and compiles into one graph."""
import torch
from torch import nn


class GraphConv(nn.Module):
    def __init__(self, edges):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        adj = torch.sparse_coo_tensor(edges, torch.ones(edges.shape[1]), (3, 3))
        self.register_buffer("adj", adj.to_dense())

    def forward(self, x):
        return self.adj @ self.lin(x)


def fullgraph_example():
    return GraphConv(torch.tensor([[0, 1, 2], [1, 2, 0]])), (torch.randn(3, 4),), {}
