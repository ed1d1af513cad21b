# expect: FG106, FG306
"""The caller passes a NumPy value: a helper's `range` over its parameter reads a traced array
(an estimator picked by mode, called with a sampled number of terms)."""
import numpy as np
import torch
from torch import nn


def exact_series(lin, x, n_terms):
    out = x
    for k in range(1, n_terms + 1):  # <- FG106 GB0059
        out = out + lin(x) / k
    return out


def truncated_series(lin, x, n_terms):
    return x + lin(x)


class Residual(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        n_terms = int(2) + np.random.poisson(2.0, 4).max()  # <- FG306 GB0294
        if self.training:
            estimator = truncated_series
        else:
            estimator = exact_series
        return estimator(self.lin, x, n_terms)


def fullgraph_example():
    return Residual().eval(), (torch.randn(2, 4),), {}
