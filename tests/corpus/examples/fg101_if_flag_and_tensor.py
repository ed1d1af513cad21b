# expect: FG101
"""A static flag `and` a tensor test: the tensor part still branches."""
import torch
from torch import nn


class Clip(nn.Module):
    def __init__(self):
        super().__init__()
        self.clip = True

    def forward(self, x, mask=None):
        h = x * 3
        if self.clip and h.abs().max() > 1:  # <- FG101 GB0170
            h = h.clamp(-1, 1)
        if mask is not None and mask.any():  # <- FG101 GB0170
            h = h * mask
        return h


def fullgraph_example():
    return Clip(), (torch.randn(4),), {"mask": torch.tensor([1.0, 0.0, 1.0, 1.0])}
