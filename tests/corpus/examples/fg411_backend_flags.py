# expect: FG411
"""Turning cuDNN off around a convolution inside compiled code."""
import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 4, 3, padding=1)

    def forward(self, x):
        with torch.backends.cudnn.flags(enabled=False):  # <- FG411 GB0208
            return self.conv(x)


def fullgraph_example():
    return Encoder(), (torch.randn(2, 4, 8),), {}
