# expect: FG420
"""A graph convolution keeps its normalised adjacency as a sparse buffer: reading it in `forward`
breaks (Dynamo cannot wrap a sparse tensor), and Dynamo runs the whole `forward` eagerly, so the
second read is never traced."""
import torch
from torch import nn


class GraphConv(nn.Module):
    def __init__(self, adj):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer("adj", (adj / adj.sum(1, keepdim=True)).to_sparse())

    def forward(self, x):
        h = torch.sparse.mm(self.adj, self.lin(x)).relu()  # <- FG420 GB0015
        return torch.sparse.mm(self.adj, h)


def fullgraph_example():
    return GraphConv(torch.eye(3) + 1), (torch.randn(3, 4),), {}
