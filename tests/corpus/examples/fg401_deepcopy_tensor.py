# expect: FG401
"""`copy.deepcopy` of a tensor."""
import copy

import torch


@torch.compile
def snapshot(x: torch.Tensor) -> torch.Tensor:
    h = x * 2
    saved = copy.deepcopy(h)  # <- FG401 GB4198
    return saved + h


def fullgraph_example():
    return snapshot, (torch.randn(4),), {}
