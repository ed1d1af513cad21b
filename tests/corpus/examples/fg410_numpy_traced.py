# expect: clean
"""`np.sum`/`np.asarray` on a tensor are traced as tensor ops."""
import numpy as np
import torch


@torch.compile
def total(x: torch.Tensor):
    h = x + 1
    return np.sum(h), np.asarray(h)


def fullgraph_example():
    return total, (torch.randn(4),), {}
