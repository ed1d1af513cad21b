# expect: FG414
"""A graph layer returns its sparse adjacency, built from the edge list (a sparse constructor);
any later use of the sparse tensor in the region would break again (GB0015)."""
import torch
from torch import nn


class Propagate(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, edges, weight):
        n = x.size(0)
        weight = torch.sigmoid(self.lin(x).sum(-1))[edges[0]] * weight
        return torch.sparse_coo_tensor(edges, weight, (n, n))  # <- FG414 GB0007


def fullgraph_example():
    edges = torch.tensor([[0, 1, 2], [1, 2, 0]])
    return Propagate(), (torch.randn(3, 4), edges, torch.rand(3)), {}
