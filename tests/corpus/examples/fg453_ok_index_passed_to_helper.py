# expect: clean
"""The same helper shape, but every caller passes an integer index tensor: gathering by index
has a static output shape, so Dynamo compiles it in one graph."""
import torch
from torch import Tensor, nn


def pick_edges(edge_index: Tensor, edge_ids: Tensor) -> Tensor:
    return edge_index[:, edge_ids]


class RelConv(nn.Module):
    def forward(self, x: Tensor, edge_index: Tensor, edge_type: Tensor):
        out = x.sum()
        for i in range(2):
            out = out + pick_edges(edge_index, edge_type + i).float().sum()
        return out


def fullgraph_example():
    return RelConv(), (torch.randn(4, 3), torch.tensor([[0, 1, 2], [1, 2, 3]]), torch.tensor([0, 1, 1])), {}
