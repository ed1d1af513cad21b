# expect: clean
"""The same version check read once at import time, in a module-level constant."""
import torch
from torch import nn

_MESHGRID_INDEXING = "indexing" in (torch.meshgrid.__kwdefaults__ or {})


class Coordinates(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        axes = [torch.arange(s, dtype=x.dtype) for s in x.shape[-2:]]
        if _MESHGRID_INDEXING and torch.meshgrid.__kwdefaults__ is not None:
            grid = torch.meshgrid(*axes, indexing="ij")
        else:
            grid = torch.meshgrid(*axes)
        return x + torch.stack(grid).sum(0)


def fullgraph_example():
    return Coordinates(), (torch.randn(2, 3, 4),), {}
