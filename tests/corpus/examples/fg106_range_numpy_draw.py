# expect: FG106, FG306
"""A NumPy draw with a size is an array: after the draw's own break, Dynamo traces it as a tensor,
so `range` over a length computed from it (through a helper, a lambda, `max`) needs its value."""
import numpy as np
import torch
from torch import nn


def geometric_sample(p, n_samples):
    return np.random.geometric(p, n_samples)  # <- FG306 GB0294


class PowerSeries(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        sample_fn = lambda m: geometric_sample(0.5, m)
        n_samples = sample_fn(3)
        n_terms = max(n_samples) + 2
        out = x
        for k in range(1, n_terms + 1):  # <- FG106 GB0059
            out = out + self.lin(x) / k
        return out


def fullgraph_example():
    return PowerSeries(), (torch.randn(2, 4),), {}
