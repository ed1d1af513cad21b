# expect: FG302
"""A module-level logger called inside forward."""
import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Proj(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        h = self.lin(x)
        logger.info("projected")  # <- FG302 GB0291
        return h.relu()


def fullgraph_example():
    return Proj(), (torch.randn(2, 4),), {}
