# expect: FG422
"""The widest input picked with `max(..., key=...)` over a generator: Dynamo's `max` of a generator
takes no keyword."""
import torch


@torch.compile
def widest(a, b):
    shapes = (a.shape, b.shape)
    i = max((i for i in range(2)), key=lambda i: shapes[i][-1])  # <- FG422 GB0193
    return (a, b)[i] * 2


def fullgraph_example():
    return widest, (torch.randn(2, 3), torch.randn(2, 5)), {}
