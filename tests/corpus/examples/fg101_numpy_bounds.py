# expect: FG101
"""A policy scales its observations when the observation space's bounds (NumPy arrays) say they are
pixels: Dynamo traces NumPy code as tensor code, so branching on `np.any(...)` reads a traced value."""
import numpy as np
import torch
from torch import nn


class Bounds:
    def __init__(self):
        self.low = np.zeros(4, dtype=np.float32)
        self.high = np.full(4, 255.0, dtype=np.float32)


class Policy(nn.Module):
    def __init__(self, space):
        super().__init__()
        self.space = space
        self.lin = nn.Linear(4, 2)

    def forward(self, obs):
        if np.any(self.space.low != 0) or np.any(self.space.high != 255):  # <- FG101 GB0170
            obs = obs / 255.0
        if np.allclose(self.space.low, 0):  # <- FG101 GB0033
            obs = obs * 2
        return self.lin(obs)


def fullgraph_example():
    return Policy(Bounds()), (torch.rand(2, 4),), {}
