# expect: FG306
"""`random.gauss` noise level."""
import random

import torch


@torch.compile
def jitter(x: torch.Tensor) -> torch.Tensor:
    h = x * 2
    return h + random.gauss(0.0, 0.1)  # <- FG306 GB0007


def fullgraph_example():
    return jitter, (torch.randn(4),), {}
