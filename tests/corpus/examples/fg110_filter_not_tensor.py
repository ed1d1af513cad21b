# expect: FG110
"""Layer dropout by a filter on `not` of a random mask's elements (vit-pytorch's CaiT): one
data-dependent branch per element, reported once as the filter (not again as the `not`)."""
import torch
from torch import nn


class DropLayers(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        to_drop = torch.zeros(len(self.layers)).uniform_(0.0, 1.0) < 0.5
        layers = [layer for (layer, drop) in zip(self.layers, to_drop) if not drop]  # <- FG110 GB0170 GB0092
        for layer in layers:
            x = layer(x)
        return x


def fullgraph_example():
    torch.manual_seed(0)
    return DropLayers(), (torch.randn(2, 4),), {}
