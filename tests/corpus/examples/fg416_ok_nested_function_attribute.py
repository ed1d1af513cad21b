# expect: clean
"""An attribute set on a function defined inside the compiled function (Dynamo tracks that one),
and on a module: one graph."""
import torch
from torch import nn


class Tagged(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        def scale(y):
            return y * 2

        scale.calls = 1
        self.proj.last_scale = 2
        return scale(self.proj(x))


def fullgraph_example():
    return Tagged(), (torch.randn(2, 4),), {}
