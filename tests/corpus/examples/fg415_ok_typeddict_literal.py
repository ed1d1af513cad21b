# expect: clean
"""The same messages built as dict literals (what the TypedDict call returns), and a TypedDict
whose keys are all required: one graph."""
from typing import TypedDict

import torch


class Message(TypedDict, total=False):
    name: str
    value: torch.Tensor


class Full(TypedDict):
    name: str
    value: torch.Tensor


@torch.compile
def sample(x: torch.Tensor) -> torch.Tensor:
    msg: Message = {"name": "z", "value": x * 2}
    full = Full(name="w", value=x + 1)
    return msg["value"] + full["value"]


def fullgraph_example():
    return sample, (torch.randn(4),), {}
