# expect: FG453
"""An annotated parameter rebound to a value the checker cannot type (a sparse layout's values)
keeps its declared type: `edge_type == i` is still a boolean tensor passed to the helper."""
from typing import Optional

import torch
from torch import Tensor, nn


def masked_edge_index(edge_index: Tensor, edge_mask: Tensor) -> Tensor:
    return edge_index[:, edge_mask]  # <- FG453 GB0036


class Layout:
    """A sparse layout (not used by the example's inputs)."""


class RelConv(nn.Module):
    def forward(self, x: Tensor, edge_index, edge_type: Optional[Tensor] = None):
        if isinstance(edge_index, Layout):
            edge_type = edge_index.storage.value()
            edge_index = edge_index.storage.index()
        assert edge_type is not None
        out = x.sum()
        for i in range(2):
            out = out + masked_edge_index(edge_index, edge_type == i).float().sum()
        return out


def fullgraph_example():
    return RelConv(), (torch.randn(4, 3), torch.tensor([[0, 1, 2], [1, 2, 3]]), torch.tensor([0, 1, 1])), {}
