# expect: clean
"""torch 2.13 traces `random.randint` and `random.uniform` (no break), unlike `random.random`."""
import random

import torch


@torch.compile
def scale(x: torch.Tensor) -> torch.Tensor:
    return x * random.randint(1, 3) * random.uniform(0.5, 1.5)


def fullgraph_example():
    return scale, (torch.randn(4),), {}
