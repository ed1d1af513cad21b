# expect: clean
"""Strings built from shapes and dtypes are constants."""
import torch


@torch.compile
def keyed(x: torch.Tensor) -> torch.Tensor:
    key = f"{tuple(x.shape)}-{x.dtype}"
    return x * len(key) + len(str(x.shape))


def fullgraph_example():
    return keyed, (torch.randn(4),), {}
