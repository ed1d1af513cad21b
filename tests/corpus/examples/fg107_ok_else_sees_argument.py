# expect: clean
"""The `else` of an `if` runs without what the body bound: there `cutoffs` is still the list argument,
so `max(cutoffs) > 0.5` is a Python test."""
from typing import Optional, Sequence

import torch


@torch.compile
def bands(x: torch.Tensor, cutoffs: Optional[Sequence[float]] = None) -> torch.Tensor:
    if cutoffs is None:
        cutoffs = torch.linspace(0, 0.5, 5)[1:-1]
    else:
        if max(cutoffs) > 0.5:
            raise ValueError("a cutoff above 0.5")
    return x * len(cutoffs)


def fullgraph_example():
    return bands, (torch.randn(3), [0.1, 0.2]), {}
