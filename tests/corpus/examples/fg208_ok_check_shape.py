# expect: clean
"""`torch._check` on a shape and `torch._assert_async` on a tensor condition stay in the graph."""
import torch
from torch import nn


class Pool(nn.Module):
    def forward(self, x: torch.Tensor, lengths: torch.Tensor):
        torch._check(x.shape[1] > 0)
        torch._assert_async((lengths > 0).all(), "lengths must be positive")
        return x.sum(dim=1) / lengths


def fullgraph_example():
    return Pool(), (torch.randn(2, 4, 3), torch.tensor([[4.0], [2.0]])), {}
