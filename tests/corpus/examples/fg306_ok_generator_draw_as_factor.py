# expect: clean
"""A seeded `random.Random` generator and its draw used as a tensor factor: Dynamo traces both."""
import random

import torch


@torch.compile
def scale(x: torch.Tensor) -> torch.Tensor:
    rand = random.Random(0)
    factor = rand.uniform(0.5, 1.5)
    return x * factor


def fullgraph_example():
    return scale, (torch.randn(4),), {}
