# expect: clean
"""Logging in `__init__` and at import time is outside the compiled region."""
import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)
logger.debug("module imported")


class Proj(nn.Module):
    def __init__(self):
        super().__init__()
        logger.info("building Proj")
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x).relu()


def fullgraph_example():
    return Proj(), (torch.randn(2, 4),), {}
