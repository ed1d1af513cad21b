# expect: FG415
"""A TypedDict whose base marks a key `NotRequired` has optional keys too."""
from typing import NotRequired, TypedDict

import torch


class Site(TypedDict):
    name: str
    mask: NotRequired[torch.Tensor]


class Observed(Site):
    value: torch.Tensor


@torch.compile
def observe(x: torch.Tensor) -> torch.Tensor:
    site = Observed(name="obs", value=x.exp())  # <- FG415 GB0257
    return site["value"].sum()


def fullgraph_example():
    return observe, (torch.randn(4),), {}
