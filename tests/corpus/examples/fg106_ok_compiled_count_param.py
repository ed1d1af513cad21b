# expect: clean
"""A compiled function's count parameter is a Python int: `range(n)` unrolls, no break."""

import torch


@torch.compile
def repeat(x, n):
    for _ in range(n):
        x = x * 2
    return x


def fullgraph_example():
    return [(repeat, (torch.ones(4), 3), {})]
