# expect: FG306
"""Quantizer dropout: a seeded `random.Random` picks the layer after which residual quantization
stops. Dynamo traces the draw as a graph value, so the loop's branch on it is data-dependent."""
import random

import torch
from torch import nn


class ResidualQuantizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(3))

    def forward(self, x: torch.Tensor, seed: int = 0) -> torch.Tensor:
        rand = random.Random(seed)
        stop = rand.randrange(1, len(self.layers))
        out = torch.zeros_like(x)
        for i, layer in enumerate(self.layers):
            if i > stop:  # <- FG306 GB0170
                continue
            out = out + layer(x - out)
        return out


def fullgraph_example():
    return ResidualQuantizer(), (torch.randn(2, 4),), {}
