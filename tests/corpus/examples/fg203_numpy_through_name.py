# expect: FG203
"""A NumPy array made from a tensor and held in a name, read back into Python later (directly or
through a NumPy function): Dynamo breaks where the value is read, not where the array is made."""
import numpy as np
import torch
from torch import nn


class Robust(nn.Module):
    def forward(self, err: torch.Tensor):
        arr = err.detach().cpu().numpy()
        scale = float(np.abs(arr).max())  # <- FG203 GB0033
        return err / scale


class Centered(nn.Module):
    def forward(self, x: torch.Tensor):
        values = x.detach().numpy()
        return x - float(values.mean())  # <- FG203 GB0033


def fullgraph_example():
    return [(Robust(), (torch.rand(8) + 0.5,), {}), (Centered(), (torch.randn(8),), {})]
