# expect: FG104
"""A range check written as a chained comparison: Python tests `0 <= y.min()` before the assert
sees a value, so Dynamo cannot lower it."""
import torch


@torch.compile
def clip_check(x: torch.Tensor) -> torch.Tensor:
    y = x * 2
    assert 0 <= y.min() <= 10, "out of range"  # <- FG104 GB0170
    return y + 1


def fullgraph_example():
    return clip_check, (torch.rand(3),), {}
