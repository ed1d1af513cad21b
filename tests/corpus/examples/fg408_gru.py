# expect: FG408
"""A GRU decoder step."""
import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(4, 4)
        self.out = nn.Linear(4, 2)

    def forward(self, x, h):
        y, h = self.gru(x, h)  # <- FG408 GB0014
        return self.out(y), h


def fullgraph_example():
    return Decoder(), (torch.randn(1, 2, 4), torch.zeros(1, 2, 4)), {}
