# expect: FG308
"""A seeded `torch.Generator` that `__init__` keeps (`torch.Generator().manual_seed(seed)`), handed to a
random op in `forward`: Dynamo cannot pass a generator to an op in a graph."""
import torch
from torch import nn


class NoisyDropout(nn.Module):
    def __init__(self, p=0.2, seed=1234):
        super().__init__()
        self.p = p
        self.gen = torch.Generator().manual_seed(seed)

    def forward(self, h):
        keep = torch.rand(h.shape, generator=self.gen) > self.p  # <- FG308 GB0055
        return h * keep / (1 - self.p)


def fullgraph_example():
    return NoisyDropout(), (torch.randn(2, 8),), {}
