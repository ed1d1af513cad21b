# expect: FG101
"""A tensor that a plain (non-module) object's `__init__` stores: a branch on the object's
attribute branches on a tensor, whether the object is made in `forward` or held by the module."""
import torch
from torch import nn


class Budget:
    def __init__(self, steps):
        self.spent = torch.zeros(())
        self.steps = steps


class Stepper(nn.Module):
    def __init__(self):
        super().__init__()
        self.budget = Budget(3)

    def forward(self, x):
        local = Budget(2)
        if local.spent > 0:  # <- FG101 GB0170
            x = x + 1
        if self.budget.spent < 1:  # <- FG101 GB0170
            x = x * 2
        if local.steps > 1:
            x = x - 1
        return x


def fullgraph_example():
    return Stepper(), (torch.randn(8),), {}
