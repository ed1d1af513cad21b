# expect: FG411
"""Reading the caller's frame (a name-scoping helper) inside compiled code."""
import sys

import torch


@torch.compile
def scoped(x: torch.Tensor) -> torch.Tensor:
    caller = sys._getframe(0).f_code.co_name  # <- FG411 GB0007
    return x * len(caller)


def fullgraph_example():
    return scoped, (torch.randn(4),), {}
