# expect: FG409
"""A method decorated with `torch._dynamo.disable`."""
import torch
from torch import nn


class Model(nn.Module):
    @torch._dynamo.disable
    def custom_kernel(self, x):
        return x.flip(-1)

    def forward(self, x):
        h = x.relu()
        return self.custom_kernel(h) * 2  # <- FG409 GB0099


def fullgraph_example():
    return Model(), (torch.randn(4),), {}
