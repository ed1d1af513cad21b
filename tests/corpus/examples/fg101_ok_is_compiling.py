# expect: clean
"""A `torch.compiler.is_compiling()` guard keeps eager-only checks out of the graph."""
import torch


@torch.compile
def normalize(x: torch.Tensor) -> torch.Tensor:
    if not torch.compiler.is_compiling():
        if torch.isnan(x).any():
            raise ValueError("NaN input")
    return x / x.norm()


def fullgraph_example():
    return normalize, (torch.randn(4),), {}
