# expect: FG304
"""Writing activations to a file from inside the region."""
import os

import torch


@torch.compile
def dump(x: torch.Tensor) -> torch.Tensor:
    h = x * 2
    with open(os.devnull, "w") as f:  # <- FG304 GB0059 GB0142
        f.write("step\n")
    return h


def fullgraph_example():
    return dump, (torch.randn(4),), {}
