# expect: clean
"""An optional generator left at `None`, and the default generator: no opaque object is traced."""
from typing import Optional

import torch


@torch.compile
def add_noise(x: torch.Tensor, generator: Optional[torch.Generator] = None) -> torch.Tensor:
    return x + torch.randn(x.shape, generator=generator) + torch.rand_like(x)


def fullgraph_example():
    return add_noise, (torch.randn(4),), {}
