# expect: FG306
"""Python arithmetic on a traced draw (`random.randint` becomes a graph value): the `+ 1`
breaks, although the same draw used directly as a tensor factor would not."""
import random

import torch


@torch.compile
def jitter(x: torch.Tensor) -> torch.Tensor:
    k = random.randint(0, 3)
    return x * (k + 1)  # <- FG306 GB0213


def fullgraph_example():
    return jitter, (torch.randn(4),), {}
