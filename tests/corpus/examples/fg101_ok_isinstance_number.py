# expect: clean
"""A helper that compares only Python numbers (`isinstance(x, numbers.Number)`): given a tensor,
it returns False without reading it, so the caller's `if` is decided while tracing."""
import numbers

import torch


def is_identically_zero(x):
    if isinstance(x, numbers.Number):
        return x == 0
    return False


@torch.compile
def scale(t: torch.Tensor) -> torch.Tensor:
    if is_identically_zero(t):
        return t
    return t * 2


def fullgraph_example():
    return scale, (torch.randn(4),), {}
