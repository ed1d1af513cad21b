# expect: clean
"""A `forward` method on a class that is not an nn.Module is not a compiled region."""
import torch
from torch import nn


class Pipeline:
    def __init__(self, model):
        self.model = model

    def forward(self, x):
        print("running pipeline")
        return self.model(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x).relu()


def fullgraph_example():
    return Net(), (torch.randn(2, 4),), {}
