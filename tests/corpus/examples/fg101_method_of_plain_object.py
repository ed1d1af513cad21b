# expect: FG101
"""A plain (non-module) object passed to `forward`: calling its method runs the method, which
branches on a tensor."""
import torch
from torch import nn


class Window:
    def __init__(self, limit):
        self.limit = limit

    def clip(self, scores):
        if scores.max() > self.limit:  # <- FG101 GB0170
            return scores.clamp(max=self.limit)
        return scores


class Scorer(nn.Module):
    def forward(self, x, window):
        return window.clip(x * 2)


def fullgraph_example():
    return Scorer(), (torch.randn(8), Window(4.0)), {}
