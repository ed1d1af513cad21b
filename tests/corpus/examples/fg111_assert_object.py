# expect: FG111
"""`assert` on a plain object passed in (a schedule): Dynamo tries to lower it to a tensor check,
cannot, and runs the whole function eagerly, whether or not the class defines `__bool__`."""
import torch
from torch import nn


class Schedule:
    def __init__(self, steps):
        self.steps = steps

    def __bool__(self):
        return self.steps > 0


class Denoiser(nn.Module):
    def forward(self, x, schedule):
        assert schedule, "empty schedule"  # <- FG111 GB0055
        return x * schedule.steps


def fullgraph_example():
    return Denoiser(), (torch.randn(4), Schedule(3)), {}
