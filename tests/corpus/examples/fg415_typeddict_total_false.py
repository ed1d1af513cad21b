# expect: FG415
"""An effect-handler message is a TypedDict with optional keys (`total=False`), built per call."""
from typing import TypedDict

import torch


class Message(TypedDict, total=False):
    name: str
    value: torch.Tensor
    scale: float


@torch.compile
def sample(x: torch.Tensor) -> torch.Tensor:
    msg = Message(name="z", value=x * 2)  # <- FG415 GB0257
    return msg["value"] + 1


def fullgraph_example():
    return sample, (torch.randn(4),), {}
