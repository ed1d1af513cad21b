# expect: clean
"""An array's `shape` and `ndim` are Python values Dynamo knows while tracing (the array itself is
traced as a tensor); branching on them compiles."""
import numpy as np
import torch
from torch import nn


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.low = np.zeros(4, dtype=np.float32)
        self.lin = nn.Linear(4, 2)

    def forward(self, obs):
        if self.low.shape[0] == 4 and self.low.ndim == 1:
            obs = obs * 2
        return self.lin(obs)


def fullgraph_example():
    return Policy(), (torch.rand(2, 4),), {}
