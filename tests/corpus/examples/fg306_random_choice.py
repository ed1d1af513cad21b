# expect: FG306
"""`random.choice` of an augmentation scale."""
import random

import torch


@torch.compile
def augment(x: torch.Tensor) -> torch.Tensor:
    h = x + 1
    return h * random.choice([0.5, 1.0, 2.0])  # <- FG306 GB0007


def fullgraph_example():
    return augment, (torch.randn(4),), {}
