# expect: FG201
"""A subclass without a `forward` of its own: the base's `forward` calls the method it overrides."""
import torch
from torch import nn


class Augmentation(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.apply_transform(x)

    def apply_transform(self, x: torch.Tensor) -> torch.Tensor:
        return x


class Brightness(Augmentation):
    def apply_transform(self, x: torch.Tensor) -> torch.Tensor:
        return x * x.mean().item()  # <- FG201 GB0124


def fullgraph_example():
    return Brightness(), (torch.randn(2, 3),), {}
