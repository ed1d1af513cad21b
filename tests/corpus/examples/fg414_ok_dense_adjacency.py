# expect: clean
"""The same adjacency kept dense (`index_put` with accumulation) compiles into one graph."""
import torch
from torch import nn


class Propagate(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, edges, weight):
        n = x.size(0)
        adj = x.new_zeros(n, n).index_put((edges[0], edges[1]), weight, accumulate=True)
        return self.lin(adj @ x)


def fullgraph_example():
    edges = torch.tensor([[0, 1, 2], [1, 2, 0]])
    return Propagate(), (torch.randn(3, 4), edges, torch.rand(3)), {}
