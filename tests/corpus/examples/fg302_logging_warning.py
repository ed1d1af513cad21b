# expect: FG302
"""The root `logging.warning` function."""
import logging

import torch


@torch.compile
def stable_softmax(x: torch.Tensor) -> torch.Tensor:
    h = x - x.max()
    logging.warning("softmax called")  # <- FG302 GB4841
    return h.softmax(-1)


def fullgraph_example():
    return stable_softmax, (torch.randn(4),), {}
