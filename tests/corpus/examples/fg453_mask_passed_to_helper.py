# expect: FG453
"""Every caller passes a comparison (a boolean tensor) to the helper's `Tensor` parameter: its
indexing is boolean-mask indexing (the shape of torch-geometric's `masked_edge_index`)."""
import torch
from torch import Tensor, nn


def masked_edge_index(edge_index: Tensor, edge_mask: Tensor) -> Tensor:
    return edge_index[:, edge_mask]  # <- FG453 GB0036


class RelConv(nn.Module):
    def forward(self, x: Tensor, edge_index: Tensor, edge_type: Tensor):
        out = x.sum()
        for i in range(2):
            out = out + masked_edge_index(edge_index, edge_type == i).float().sum()
        return out


def fullgraph_example():
    return RelConv(), (torch.randn(4, 3), torch.tensor([[0, 1, 2], [1, 2, 3]]), torch.tensor([0, 1, 1])), {}
