# expect: FG417
"""A torch-version check on `torch.meshgrid`'s keyword defaults inside `forward` (MONAI's shape)."""
import torch
from torch import nn


class Coordinates(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        axes = [torch.arange(s, dtype=x.dtype) for s in x.shape[-2:]]
        if "indexing" in torch.meshgrid.__kwdefaults__:  # <- FG417 GB4411
            grid = torch.meshgrid(*axes, indexing="ij")
        else:
            grid = torch.meshgrid(*axes)
        return x + torch.stack(grid).sum(0)


def fullgraph_example():
    return Coordinates(), (torch.randn(2, 3, 4),), {}
