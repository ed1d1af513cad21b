# expect: FG101, FG204
"""A decorator's wrapper calls a helper defined next to it; the helper branches on a tensor."""
import functools

import torch


def track_max(fn):
    def update(module, positions):
        longest = torch.max(positions) + 1
        if longest > module.cached:  # <- FG101 GB0170
            module.cached = int(longest)  # <- FG204 GB0124

    @functools.wraps(fn)
    def wrapper(module, x, positions):
        update(module, positions)
        return fn(module, x, positions)

    return wrapper


class Rotary(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.cached = 4

    @track_max
    def forward(self, x, positions):
        return x * positions


def fullgraph_example():
    return Rotary(), (torch.randn(6), torch.arange(6)), {}
