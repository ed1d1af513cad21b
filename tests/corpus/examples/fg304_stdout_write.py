# expect: FG304
"""`sys.stdout.write` progress output."""
import sys

import torch


@torch.compile
def tick(x: torch.Tensor) -> torch.Tensor:
    h = x + 1
    sys.stdout.write(".")  # <- FG304 GB0156
    return h * 2


def fullgraph_example():
    return tick, (torch.randn(4),), {}
