# expect: FG410
"""A numpy reduction of a tensor turned into a Python float."""
import numpy as np
import torch


@torch.compile
def spread(x: torch.Tensor) -> torch.Tensor:
    h = x + 1
    return h * float(np.array(h).std())  # <- FG410 GB0033


def fullgraph_example():
    return spread, (torch.randn(4),), {}
