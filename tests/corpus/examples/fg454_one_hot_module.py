# expect: FG454
"""`torch.nn.functional.one_hot` spelled out, in forward."""
import torch
from torch import nn


class Labels(nn.Module):
    def forward(self, y):
        z = y.abs()
        return torch.nn.functional.one_hot(z).float()  # <- FG454 GB0246


def fullgraph_example():
    return Labels(), (torch.tensor([0, 1, 2]),), {}
