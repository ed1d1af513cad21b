# expect: FG101
"""An attention module calls its processor object; the processor's `__call__` branches on a tensor."""
import torch
from torch import nn


class Processor:
    def __call__(self, attn: nn.Module, x: torch.Tensor) -> torch.Tensor:
        if x.sum() > 0:  # <- FG101 GB0170
            return attn.proj(x)
        return -x


class Attention(nn.Module):
    def __init__(self, processor: "Processor"):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.processor = processor

    def forward(self, x):
        return self.processor(self, x)


def fullgraph_example():
    return Attention(Processor()), (torch.randn(2, 4),), {}
