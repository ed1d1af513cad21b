# expect: FG101, FG111
"""What a caller passes reaches a helper through `*args`: `apply(fn, *args)` calling `fn(*args)`
gives `gate` the tensors `step` passes, and `*parts` holds them (an assert on it is no tensor check)."""
import torch


def gate(h, w):
    if (h * w).sum() > 0:  # <- FG101 GB0170
        return h * 2
    return h


def apply(fn, *args):
    return fn(*args)


def total(*parts):
    assert parts, "nothing to add"  # <- FG111 GB0112
    return parts[0] + parts[1]


@torch.compile
def step(x: torch.Tensor) -> torch.Tensor:
    return apply(gate, x, x + 1) + total(x, x)


def fullgraph_example():
    return step, (torch.randn(4),), {}
