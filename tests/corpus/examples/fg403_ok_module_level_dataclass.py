# expect: clean
"""A dataclass defined at module level can be built in the region."""
from dataclasses import dataclass

import torch


@dataclass
class Output:
    logits: torch.Tensor


@torch.compile
def head(x: torch.Tensor) -> torch.Tensor:
    return Output(x.relu()).logits * 2


def fullgraph_example():
    return head, (torch.randn(4),), {}
