# expect: FG101
"""A function given straight to torch.compile: its unannotated parameters hold tensors."""

import torch


@torch.compile
def center(x):
    if x.mean() > 0:  # <- FG101 GB0170
        x = x - x.mean()
    return x * 2


def fullgraph_example():
    return [(center, (torch.ones(4),), {}), (center, (-torch.ones(4),), {})]
