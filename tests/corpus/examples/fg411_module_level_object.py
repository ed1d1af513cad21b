# expect: FG411
"""A helper object made at module level: its method, called in compiled code, fingerprints the
shape with `zlib`, a C function Dynamo cannot trace."""
import zlib

import torch
from torch import nn


class ShapeLog:
    def __init__(self):
        self.seen = set()

    def note(self, x):
        self.seen.add(zlib.crc32(str(tuple(x.shape)).encode()))  # <- FG411 GB0007
        return x


SHAPES = ShapeLog()


class Block(nn.Module):
    def forward(self, x):
        return SHAPES.note(x).relu()


def fullgraph_example():
    return Block(), (torch.randn(2, 3),), {}
