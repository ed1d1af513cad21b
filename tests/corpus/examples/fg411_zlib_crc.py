# expect: FG411
"""A zlib checksum in the region."""
import zlib

import torch


@torch.compile
def salted(x: torch.Tensor) -> torch.Tensor:
    h = x + 1
    return h * (zlib.crc32(b"salt") % 7)  # <- FG411 GB0007


def fullgraph_example():
    return salted, (torch.randn(4),), {}
