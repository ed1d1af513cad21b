# expect: clean
"""`struct.pack`/`unpack` of constants are folded while tracing (unlike `struct.calcsize`)."""
import struct

import torch


@torch.compile
def packed(x: torch.Tensor) -> torch.Tensor:
    (width,) = struct.unpack("<i", struct.pack("<i", 3))
    return x * width


def fullgraph_example():
    return packed, (torch.randn(4),), {}
