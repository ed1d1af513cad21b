# expect: clean
"""Tensor methods and torch predicates whose answers are static for Dynamo."""
import torch
from torch import nn


class Static(nn.Module):
    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(4))

    def forward(self, x):
        if x.numel() > 0 and x.is_floating_point():
            x = x + 1
        if x.dtype == torch.float16 or x.device.type != "cpu":
            x = x.float()
        if len(x.shape) == 2 and torch.is_grad_enabled():
            x = x * 2
        if self.bias is not None and hasattr(self, "bias"):
            x = x + self.bias
        return x


def fullgraph_example():
    return Static(), (torch.randn(2, 4),), {}
