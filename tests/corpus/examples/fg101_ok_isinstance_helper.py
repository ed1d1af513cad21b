# expect: clean
"""A helper that returns a type test joined with a comparison (nflows' `is_positive_int`): for a
tensor the `isinstance` is False while Dynamo traces, so `and` returns that Python bool and the
comparison never runs."""
import torch
from torch import nn


def is_positive_int(n):
    return isinstance(n, int) and n > 0


class Shift(nn.Module):
    def forward(self, x: torch.Tensor):
        y = x * 2
        if not is_positive_int(y):
            y = y + 1
        return y


def fullgraph_example():
    return Shift(), (torch.randn(3),), {}
