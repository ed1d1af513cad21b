# expect: FG411
"""A TorchScript-friendly type test (`torch.jit.isinstance`) on an optional skip input: Dynamo
marks `torch.jit.isinstance` as skipped (the built-in `isinstance` is traced)."""
from typing import Optional

import torch
from torch import nn


class Decoder(nn.Module):
    def forward(self, x: torch.Tensor, skip: Optional[torch.Tensor] = None) -> torch.Tensor:
        x = x * 2
        if skip is not None and torch.jit.isinstance(skip, torch.Tensor):  # <- FG411 GB0007
            x = x + skip
        return x


def fullgraph_example():
    return Decoder(), (torch.randn(2, 3), torch.randn(2, 3)), {}
