# expect: clean
"""An assert message written as `"..." + "..."`: CPython folds it into one string constant before
Dynamo sees the bytecode, so the assert is lowered like one with a plain string."""
import torch


@torch.compile
def scale(x: torch.Tensor) -> torch.Tensor:
    assert torch.isfinite(x).all(), "x must be " + "finite"
    return x * 2


def fullgraph_example():
    return scale, (torch.randn(3),), {}
