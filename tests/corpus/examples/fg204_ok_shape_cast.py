# expect: clean
"""Casts of shapes and Python numbers are static."""
import math

import torch


@torch.compile
def scale_by_dim(x: torch.Tensor) -> torch.Tensor:
    d = int(x.shape[-1])
    return x / float(math.sqrt(d))


def fullgraph_example():
    return scale_by_dim, (torch.randn(2, 4),), {}
