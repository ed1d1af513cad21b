# expect: clean
"""A chained comparison of sizes is decided while tracing: no break."""
import torch


@torch.compile
def clip_batch(x: torch.Tensor) -> torch.Tensor:
    small = 0 < x.size(0) <= 4
    return x * 2 if small else x


def fullgraph_example():
    return clip_batch, (torch.randn(3, 2),), {}
