# expect: clean
"""Timing around the compiled call, not inside it."""
import time

import torch


def timed_call(fn, x):
    start = time.perf_counter()
    out = fn(x)
    return out, time.perf_counter() - start


@torch.compile
def square(x: torch.Tensor) -> torch.Tensor:
    return x * x


def fullgraph_example():
    return square, (torch.randn(4),), {}
