# expect: FG201
"""`Function.apply(...)` runs the Function's static `forward` (Dynamo traces it): a scale read
as a Python number there breaks the graph."""
import torch
from torch import nn


class ScaleGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.factor = scale.item()  # <- FG201 GB0124
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.factor, None


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.scale = nn.Parameter(torch.tensor(0.5))

    def forward(self, x):
        return ScaleGrad.apply(self.lin(x), self.scale)


def fullgraph_example():
    return Model(), (torch.randn(2, 4),), {}
