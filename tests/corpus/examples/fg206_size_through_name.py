# expect: FG206
"""The padded length is the largest total duration, bound to a name and then used as a size (the
shape of FastSpeech2's length regulator): Dynamo needs the reduction's value."""
import torch
from torch import nn


class LengthRegulator(nn.Module):
    def forward(self, encoded: torch.Tensor, durations: torch.Tensor):
        max_len = torch.sum(durations, dim=1).max()
        padded = torch.zeros((encoded.size(0), max_len, encoded.size(2)))  # <- FG206 GB0033
        return padded + encoded.mean()


def fullgraph_example():
    return LengthRegulator(), (torch.randn(2, 3, 4), torch.tensor([[1, 2, 1], [2, 2, 2]])), {}
