# expect: clean
"""Changing `requires_grad` inside an autograd Function's `backward` does not break: Dynamo traces
the backward as its own graph."""
import torch
from torch import nn


class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        fresh = x.detach().requires_grad_(True)
        return grad * 2 + fresh * 0


class Model(nn.Module):
    def forward(self, x):
        return Twice.apply(x) * 3


def fullgraph_example():
    return Model(), (torch.randn(3, requires_grad=True),), {}
