# expect: FG303
"""`warnings.warn` inside the compiled function."""
import warnings

import torch


@torch.compile
def legacy(x: torch.Tensor) -> torch.Tensor:
    h = x * 2
    warnings.warn("legacy path")  # <- FG303 GB0007
    return h + 1


def fullgraph_example():
    return legacy, (torch.randn(4),), {}
