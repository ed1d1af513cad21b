"""A small gated MLP with three likely graph breaks for the VS Code end-to-end test."""
import torch
from torch import nn


class GatedMLP(nn.Module):
    def __init__(self, width: int = 8) -> None:
        super().__init__()
        self.proj = nn.Linear(width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.proj(x)
        print("hidden norm", h.norm())
        if h.mean() > 0:
            y = torch.relu(h)
        else:
            y = h * 0.5
        scale = h.abs().max().item()
        return y / scale


model = torch.compile(GatedMLP())


def fullgraph_example():
    return GatedMLP(), (torch.randn(4, 8),), {}
