# expect: clean
"""A generator *called* from the region is inlined; only a generator entry breaks."""
import torch


def halves(x):
    yield x[:2]
    yield x[2:]


@torch.compile
def total(x: torch.Tensor) -> torch.Tensor:
    return sum(h.sum() for h in halves(x))


def fullgraph_example():
    return total, (torch.randn(4),), {}
