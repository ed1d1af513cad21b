# expect: FG107
"""A running count kept as a state a base-class setter makes (`self.add_state(name, default)` does
`setattr(self, name, default)`, torchmetrics' shape), checked before dividing by it."""
import torch
from torch import nn


class Metric(nn.Module):
    def add_state(self, name: str, default: torch.Tensor) -> None:
        default = default.contiguous()
        setattr(self, name, default)


class MeanValue(Metric):
    def __init__(self):
        super().__init__()
        self.add_state("total", default=torch.tensor(0))
        self.add_state("summed", default=torch.tensor(0.0))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.total = self.total + x.numel()
        self.summed = self.summed + x.sum()
        if self.total < 2:  # <- FG107 GB0170
            raise ValueError("needs at least two samples")
        return self.summed / self.total


def fullgraph_example():
    return MeanValue(), (torch.randn(3),), {}
