# expect: clean
"""Code after `if torch.compiler.is_compiling(): return ...` never runs under Dynamo: the scalar
read and the generator after it break nothing (the eager path keeps them)."""
import torch
from torch import nn


class Noisy(nn.Module):
    def forward(self, x):
        if torch.compiler.is_compiling():
            return x + torch.randn(x.shape)
        with torch.no_grad():
            g = torch.Generator().manual_seed(0)
        s = x.sum().item()
        return x * s + torch.randn(x.shape, generator=g)


def fullgraph_example():
    return Noisy(), (torch.randn(4),), {}
