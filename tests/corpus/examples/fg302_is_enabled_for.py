# expect: FG302
"""`logger.isEnabledFor` guard around debug output."""
import logging

import torch

log = logging.getLogger("fg302")


@torch.compile
def mix(x: torch.Tensor) -> torch.Tensor:
    h = x.sigmoid()
    if log.isEnabledFor(logging.DEBUG):  # <- FG302 GB0291
        h = h + 0
    return h * x


def fullgraph_example():
    return mix, (torch.randn(4),), {}
