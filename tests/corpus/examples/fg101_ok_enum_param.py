# expect: clean
"""A compiled function called with an enum member: `kind == Kind.FAST` is a Python test."""
import enum

import torch


class Kind(enum.Enum):
    FAST = 1
    SLOW = 2


@torch.compile
def pick(x, kind):
    if kind == Kind.FAST:
        return x * 2
    return x - 1


def fullgraph_example():
    return [(pick, (torch.ones(4), Kind.FAST), {}), (pick, (torch.ones(4), Kind.SLOW), {})]
