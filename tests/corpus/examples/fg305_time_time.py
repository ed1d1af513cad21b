# expect: FG305
"""Timing a step with `time.time()` inside the region."""
import time

import torch


@torch.compile
def timed(x: torch.Tensor):
    h = x @ x.T
    t0 = time.time()  # <- FG305 GB0007
    return h * 2, t0


def fullgraph_example():
    return timed, (torch.randn(3, 3),), {}
