# expect: FG402
"""A compiled generator function."""
import torch


@torch.compile
def chunks(x: torch.Tensor):
    for part in x.chunk(2):
        yield part * 2  # <- FG402 GB0003


def fullgraph_example():
    return chunks, (torch.randn(4),), {}
