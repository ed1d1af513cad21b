# expect: FG405
"""`data_ptr() !=` in forward."""
import torch
from torch import nn


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 4)

    def forward(self, x):
        h = self.a(x)
        tied = h.data_ptr() != x.data_ptr()  # <- FG405 GB5976
        return self.b(h), tied


def fullgraph_example():
    return Tied(), (torch.randn(2, 4),), {}
