# expect: FG405
"""Aliasing check via `data_ptr()`."""
import torch


@torch.compile
def maybe_copy(x: torch.Tensor) -> torch.Tensor:
    y = x.contiguous() + 0
    if x.data_ptr() == y.data_ptr():  # <- FG405 GB5976
        return y.clone()
    return y


def fullgraph_example():
    return maybe_copy, (torch.randn(4),), {}
