# expect: clean
"""`math` functions are constant-folded."""
import math

import torch


@torch.compile
def rope_scale(x: torch.Tensor) -> torch.Tensor:
    return x * math.log(10000.0) / math.sqrt(x.shape[-1])


def fullgraph_example():
    return rope_scale, (torch.randn(4),), {}
