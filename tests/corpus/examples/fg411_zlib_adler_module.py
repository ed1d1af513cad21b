# expect: FG411
"""`zlib.adler32` hashing a name in forward."""
import zlib

import torch
from torch import nn


class Hashed(nn.Module):
    def __init__(self, name="layer"):
        super().__init__()
        self.name = name

    def forward(self, x):
        h = x * 2
        bucket = zlib.adler32(self.name.encode()) % 4  # <- FG411 GB0007
        return h + bucket


def fullgraph_example():
    return Hashed(), (torch.randn(4),), {}
