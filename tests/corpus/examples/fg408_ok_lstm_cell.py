# expect: clean
"""`nn.LSTMCell` unrolled by hand traces fine (only RNN/GRU/LSTM wrappers break)."""
import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(4, 8)

    def forward(self, x):
        h = c = torch.zeros(x.shape[0], 8)
        for t in range(x.shape[1]):
            h, c = self.cell(x[:, t], (h, c))
        return h


def fullgraph_example():
    return Encoder(), (torch.randn(2, 3, 4),), {}
