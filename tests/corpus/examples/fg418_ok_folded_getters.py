# expect: clean
"""The getters Dynamo folds into constants (the default dtype, grad mode, autocast) trace without a break."""
import torch
from torch import nn


class Scaled(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scale = torch.ones((), dtype=torch.get_default_dtype())
        if torch.is_grad_enabled() and not torch.is_autocast_enabled():
            scale = scale * 2
        return x * scale


def fullgraph_example():
    return Scaled(), (torch.randn(2, 5),), {}
