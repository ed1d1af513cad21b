# expect: FG420
"""The caller passes the adjacency as a sparse tensor: the parameter is sparse, and its first read
in the compiled `forward` breaks."""
import torch
from torch import nn


class Propagate(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, adj):
        h = self.lin(x)
        return torch.spmm(adj, h) + h  # <- FG420 GB0015


def fullgraph_example():
    adj = torch.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]).to_sparse()
    return Propagate(), (torch.randn(3, 4), adj), {}
