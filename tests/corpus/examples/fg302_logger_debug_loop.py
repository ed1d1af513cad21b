# expect: FG302
"""Per-layer debug logging in the loop over layers skips the whole forward (GB7000)."""
import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Layers(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
            logger.debug("layer done")  # <- FG302 GB7000
        return x


def fullgraph_example():
    return Layers(), (torch.randn(2, 4),), {}
