# expect: clean
"""Install and capability probes whose result Dynamo takes as a constant: it calls them while
tracing and never traces them, so their logging and prints run once, at compile time, and break
nothing (torch's `assume_constant_result`, and a decorator of the file that sets the mark it sets,
as transformers' `is_torch_available` is marked)."""
import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


def compile_constant(fn):
    setattr(fn, "_dynamo_marked_constant", True)
    return fn


@compile_constant
def has_fast_kernels():
    logger.warning("probing for fast kernels")
    return False


@torch._dynamo.assume_constant_result
def scale_from_environment():
    print("reading the scale once")
    return 3


class Scaled(nn.Module):
    def forward(self, x):
        if not has_fast_kernels():
            x = x + scale_from_environment()
        return x * 2


def fullgraph_example():
    return [(Scaled(), (torch.ones(4),), {})]
