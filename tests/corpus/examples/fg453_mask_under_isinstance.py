# expect: FG453
"""The parameter may be a tensor or a sparse structure; inside `isinstance(edge_index, Tensor)`
it is a tensor, and indexing it with the mask its callers pass makes a data-dependent shape."""
from typing import Union

import torch
from torch import Tensor, nn


def masked_edges(edge_index: Union[Tensor, list], edge_mask: Tensor):
    if isinstance(edge_index, Tensor):
        return edge_index[:, edge_mask]  # <- FG453 GB0036
    return edge_index


class RelConv(nn.Module):
    def forward(self, x: Tensor, edge_index: Union[Tensor, list], edge_type: Tensor):
        return x.sum() + masked_edges(edge_index, edge_type == 1).float().sum()


def fullgraph_example():
    return RelConv(), (torch.randn(4, 3), torch.tensor([[0, 1, 2], [1, 2, 3]]), torch.tensor([0, 1, 1])), {}
