# expect: FG452
"""Class counts with `minlength`: the length is still `max(minlength, labels.max() + 1)`."""
import torch
from torch import nn


class ClassBalance(nn.Module):
    def __init__(self, classes: int = 4):
        super().__init__()
        self.classes = classes

    def forward(self, labels: torch.Tensor) -> torch.Tensor:
        counts = torch.bincount(labels, minlength=self.classes)  # <- FG452 GB0036
        return counts.float() / labels.numel()


def fullgraph_example():
    return ClassBalance(), (torch.tensor([0, 1, 1, 3]),), {}
