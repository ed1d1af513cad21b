# expect: FG411
"""Importing a backend by name inside compiled code."""
from importlib import import_module

import torch


@torch.compile
def activate(x: torch.Tensor) -> torch.Tensor:
    backend = import_module("math")  # <- FG411 GB0007
    return x * backend.pi


def fullgraph_example():
    return activate, (torch.randn(4),), {}
