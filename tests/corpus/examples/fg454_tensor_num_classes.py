# expect: FG454
"""`num_classes` computed from the data (mixture-of-experts' `safe_one_hot`): Dynamo reads the
tensor's value to size the output, and breaks."""
import torch
import torch.nn.functional as F
from torch import nn


class Route(nn.Module):
    def forward(self, x: torch.Tensor):
        idx = (x * 3).long()
        a = F.one_hot(idx, idx.max() + 1).float()  # <- FG454 GB0033
        b = F.one_hot(idx, max(idx.max() + 1, 4)).float()  # <- FG454 GB0033
        return a.sum() + b.sum()


def fullgraph_example():
    return Route(), (torch.rand(6),), {}
