# expect: clean
"""numpy on Python constants and shapes."""
import numpy as np
import torch


@torch.compile
def scale(x: torch.Tensor) -> torch.Tensor:
    return x / float(np.sqrt(x.shape[-1])) * np.pi


def fullgraph_example():
    return scale, (torch.randn(4),), {}
