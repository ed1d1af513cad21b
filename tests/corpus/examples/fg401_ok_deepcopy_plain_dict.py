# expect: clean
"""Deep-copying plain Python values (a settings dict) traces: only tensors stop `copy.deepcopy`."""
import copy

import torch

DEFAULTS = {"scale": 2.0, "shifts": [1, 2]}


@torch.compile
def scaled(x: torch.Tensor) -> torch.Tensor:
    settings = copy.deepcopy(DEFAULTS)
    settings["scale"] += 1.0
    return x * settings["scale"] + settings["shifts"][0]


def fullgraph_example():
    return scaled, (torch.randn(4),), {}
