# expect: clean
"""Warnings and logging behind `torch.compiler.is_compiling()` only run eagerly."""
import logging
import warnings

import torch

logger = logging.getLogger(__name__)


@torch.compile
def legacy(x: torch.Tensor) -> torch.Tensor:
    if not torch.compiler.is_compiling():
        warnings.warn("legacy path")
        logger.info("running eagerly")
    return x * 2


def fullgraph_example():
    return legacy, (torch.randn(4),), {}
