# expect: FG408
"""An LSTM encoder submodule."""
import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(4, 8, batch_first=True)

    def forward(self, x):
        out, _ = self.rnn(x)  # <- FG408 GB0014
        return out[:, -1]


def fullgraph_example():
    return Encoder(), (torch.randn(2, 3, 4),), {}
