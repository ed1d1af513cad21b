# expect: clean
"""Branches on config attributes and int flags are constants at trace time."""
from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class Config:
    use_residual: bool = True
    num_layers: int = 2


class Stack(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(config.num_layers))

    def forward(self, x):
        for layer in self.layers:
            h = layer(x)
            x = x + h if self.config.use_residual else h
        return x


def fullgraph_example():
    return Stack(Config()), (torch.randn(2, 4),), {}
